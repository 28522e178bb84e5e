// plist-rust-peer: the Rust `plist` crate as a system of plist-bench (Benchmarks/Sources/plist-bench).
//
// plist-bench starts this program as one of its worker processes, with the arguments and the
// line protocol of its own workers (Benchmarks/Sources/plist-bench/Workers.swift), so the parent
// interleaves its cells with every other system's and reads its samples the same way. The codec
// alone is timed, in this process, on the same clock (CLOCK_PROCESS_CPUTIME_ID by default): process
// start-up, reading the documents and the checks are outside the timed iterations.
//
//   plist-rust-peer --worker rust-plist|rust-serde --references JSON --data DIR --datasets a,b
//                   --benchmarks decode-binary,… --min-time S --warm-up S --rounds N --clock cpu|wall
//                   --outputs DIR      (each encode cell's output is written to DIR/cell-INDEX.out
//                                       for the parent to read back through Foundation)
//   plist-rust-peer --memory-child SYSTEM PATH ITEMS WARM-UP-PATH
//   plist-rust-peer --loop SYSTEM BENCHMARK DATASET [--iterations N] [--data DIR]   (for profilers)

mod cells;
mod clock;
mod fingerprint;
mod store;

use cells::{Benchmark, Cell, Format, System};
use clock::Clock;
use fingerprint::Fingerprint;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::exit;

fn fail(message: &str) -> ! {
    eprintln!("plist-rust-peer: {}", message);
    exit(2)
}

struct Options {
    system: Option<System>,
    data: String,
    datasets: Vec<String>,
    benchmarks: Vec<String>,
    minimum_time: f64,
    warm_up: f64,
    rounds: usize,
    clock: Clock,
    references: HashMap<String, Fingerprint>,
    outputs: Option<String>,
    iterations: usize,
    loop_cell: Option<(String, String, String)>,
}

fn parse_options(arguments: &[String]) -> Options {
    let mut options = Options {
        system: None,
        data: "Benchmarks/data".to_string(),
        datasets: vec!["plist-small".into(), "plist-medium".into(), "plist-large".into()],
        benchmarks: vec!["decode-binary".into(), "decode-xml".into(), "encode-binary".into(), "encode-xml".into()],
        minimum_time: 1.0,
        warm_up: 0.2,
        rounds: 10,
        clock: Clock::Cpu,
        references: HashMap::new(),
        outputs: None,
        iterations: 20,
        loop_cell: None,
    };
    let mut rest = arguments.iter();
    let value = |flag: &str, rest: &mut std::slice::Iter<String>| -> String {
        rest.next().cloned().unwrap_or_else(|| fail(&format!("{} needs a value", flag)))
    };
    fn number<T: std::str::FromStr>(flag: &str, text: String) -> T {
        text.parse().unwrap_or_else(|_| fail(&format!("{} takes a number, not {}", flag, text)))
    }
    fn list(text: String) -> Vec<String> {
        text.split(',').filter(|part| !part.is_empty()).map(String::from).collect()
    }
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--worker" => {
                let name = value(flag, &mut rest);
                options.system = Some(System::parse(&name).unwrap_or_else(|| fail(&format!("unknown system {}", name))));
            }
            "--references" => {
                let text = value(flag, &mut rest);
                options.references = serde_json::from_str(&text)
                    .unwrap_or_else(|error| fail(&format!("--references: {}", error)));
            }
            "--data" => options.data = value(flag, &mut rest),
            "--datasets" => options.datasets = list(value(flag, &mut rest)),
            "--benchmarks" => options.benchmarks = list(value(flag, &mut rest)),
            "--min-time" => options.minimum_time = number(flag, value(flag, &mut rest)),
            "--warm-up" => options.warm_up = number(flag, value(flag, &mut rest)),
            "--rounds" => options.rounds = number::<usize>(flag, value(flag, &mut rest)).max(1),
            "--iterations" => options.iterations = number(flag, value(flag, &mut rest)),
            "--outputs" => options.outputs = Some(value(flag, &mut rest)),
            "--clock" => {
                let name = value(flag, &mut rest);
                options.clock = Clock::parse(&name).unwrap_or_else(|| fail(&format!("--clock takes cpu or wall, not {}", name)));
            }
            "--loop" => {
                let system = value(flag, &mut rest);
                let benchmark = value(flag, &mut rest);
                let dataset = value(flag, &mut rest);
                options.loop_cell = Some((system, benchmark, dataset));
            }
            other => fail(&format!("unknown argument {}", other)),
        }
    }
    options
}

/// manifest.tsv: dataset → item count.
fn read_manifest(directory: &str) -> HashMap<String, i64> {
    let path = format!("{}/manifest.tsv", directory);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| fail(&format!("cannot read {}: {}", path, error)));
    let mut manifest = HashMap::new();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() >= 3 {
            if let Ok(items) = fields[1].parse() {
                manifest.insert(fields[0].to_string(), items);
            }
        }
    }
    manifest
}

fn read_document(options: &Options, dataset: &str, format: Format) -> Vec<u8> {
    let path = format!("{}/{}.{}", options.data, dataset, format.extension());
    std::fs::read(&path).unwrap_or_else(|error| fail(&format!("cannot read {}: {}", path, error)))
}

/// Tabs and line breaks would break the protocol's lines.
fn field(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", line);
    let _ = out.flush();
}

/// One round of a cell, as plist-bench's `measureRound`: a warm-up, then iterations until the
/// round has run `minimum_time` seconds and `minimum_iterations` iterations; every result checked.
fn measure_round(
    cell: &mut Cell, clock: Clock, minimum_time: f64, warm_up: f64, minimum_iterations: usize,
    times: &mut Vec<f64>, walls: &mut Vec<f64>,
) -> Result<(), String> {
    let expected = cell.expected;
    let check = |result: i64| match expected {
        Some(expected) if result != expected => Err(format!("an iteration returned {}, expected {}", result, expected)),
        None if result <= 0 => Err(format!("an encoder returned {} bytes", result)),
        _ => Ok(()),
    };
    if warm_up > 0.0 {
        let start = clock.now();
        loop {
            check((cell.run)()?)?;
            if clock.now() - start >= warm_up {
                break;
            }
        }
    }
    let mut iterations = 0;
    let mut total = 0.0;
    while iterations < minimum_iterations || total < minimum_time {
        let wall_start = Clock::Wall.now();
        let start = clock.now();
        let result = (cell.run)()?;
        let elapsed = clock.now() - start;
        walls.push(Clock::Wall.now() - wall_start);
        check(result)?;
        times.push(elapsed);
        total += elapsed;
        iterations += 1;
    }
    Ok(())
}

fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 { sorted[middle] } else { (sorted[middle - 1] + sorted[middle]) / 2.0 }
}

fn run_worker(system: System, options: &Options) -> ! {
    let manifest = read_manifest(&options.data);
    let mut cells: Vec<Cell> = Vec::new();
    for dataset in &options.datasets {
        let source = read_document(options, dataset, Format::Binary);
        let reference = options.references.get(dataset).unwrap_or_else(|| fail(&format!("no reference fingerprint for {}", dataset)));
        let expected = *manifest.get(dataset).unwrap_or_else(|| fail(&format!("{} is not in manifest.tsv", dataset)));
        for format in [Format::Binary, Format::Xml] {
            for name in &options.benchmarks {
                let benchmark = Benchmark::parse(name).unwrap_or_else(|| fail(&format!("unknown benchmark {}", name)));
                if benchmark.format != format {
                    continue;
                }
                let document = if format == Format::Binary { source.clone() } else { read_document(options, dataset, format) };
                let label = format!("{}.{}", dataset, format.extension());
                let description = format!("{}\t{}\t{}\t{}", name, dataset, label, document.len());
                match cells::make_cell(system, benchmark, document, &source, expected, reference) {
                    Ok(mut cell) => {
                        if let (Some(output), Some(directory)) = (cell.output.take(), &options.outputs) {
                            let path = format!("{}/cell-{}.out", directory, cells.len());
                            std::fs::write(&path, output).unwrap_or_else(|error| fail(&format!("cannot write {}: {}", path, error)));
                        }
                        cells.push(cell);
                        send(&format!("cell\t{}\t{}", cells.len() - 1, description));
                    }
                    Err(message) => send(&format!("failed\t{}\t{}", description, field(&message))),
                }
            }
        }
    }
    send("ready");
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    let mut walls: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap_or_else(|error| fail(&format!("reading commands: {}", error)));
        let parts: Vec<&str> = line.split('\t').collect();
        let (index, round) = match (parts.as_slice(), parts.get(1).and_then(|t| t.parse::<usize>().ok()), parts.get(2).and_then(|t| t.parse::<usize>().ok())) {
            (["run", _, _], Some(index), Some(round)) if index < cells.len() => (index, round),
            _ => fail(&format!("unexpected command {:?}", line)),
        };
        let before = times[index].len();
        let short_cell = times[index].is_empty() || median(&times[index]) < 0.05;
        let warm_up = if round == 0 { options.warm_up } else if short_cell { 1e-9 } else { 0.0 };
        let minimum_iterations = if round == options.rounds - 1 { 3usize.saturating_sub(times[index].len()).max(1) } else { 1 };
        let (cell_times, cell_walls) = (&mut times[index], &mut walls[index]);
        let outcome = measure_round(
            &mut cells[index], options.clock, options.minimum_time / options.rounds as f64, warm_up, minimum_iterations,
            cell_times, cell_walls,
        );
        if let Err(message) = outcome {
            send(&format!("error\t{}\t{}", index, field(&message)));
        }
        let mut reply = String::new();
        for iteration in before..times[index].len() {
            reply += &format!("sample\t{}\t{}\t{}\n", index, times[index][iteration], walls[index][iteration]);
        }
        reply += "done";
        send(&reply);
    }
    exit(0)
}

/// A `Vm…:` line of /proc/self/status, in bytes.
fn proc_status(key: &str) -> i64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix(key).and_then(|rest| rest.strip_prefix(':')) {
            let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
            return digits.parse::<i64>().unwrap_or(0) * 1024;
        }
    }
    0
}

/// As plist-bench's memory child: warm up on a small document, reset the peak, then read and
/// decode; prints `before= loaded= peak= reset=`.
fn run_memory_child(arguments: &[String]) -> ! {
    if arguments.len() != 4 {
        fail("usage: --memory-child SYSTEM PATH ITEMS WARM-UP-PATH");
    }
    let system = System::parse(&arguments[0]).unwrap_or_else(|| fail(&format!("unknown system {}", arguments[0])));
    let path = &arguments[1];
    let items: i64 = arguments[2].parse().unwrap_or_else(|_| fail("ITEMS must be a number"));
    let format = if path.ends_with(".xml") { Format::Xml } else { Format::Binary };
    if !arguments[3].is_empty() {
        let warm = std::fs::read(&arguments[3]).unwrap_or_else(|error| fail(&error.to_string()));
        drop(cells::decode_for_memory(system, &warm, format).unwrap_or_else(|error| fail(&error)));
    }
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = proc_status("VmRSS");
    let bytes = std::fs::read(path).unwrap_or_else(|error| fail(&error.to_string()));
    let loaded = proc_status("VmRSS");
    let (count, keep_alive) = cells::decode_for_memory(system, &bytes, format).unwrap_or_else(|error| fail(&error));
    let peak = proc_status("VmHWM");
    if count != items {
        fail(&format!("decoded {} items, expected {}", count, items));
    }
    println!("before={} loaded={} peak={} reset={}", before, loaded, peak, if reset { 1 } else { 0 });
    drop(keep_alive);
    drop(bytes);
    exit(0)
}

/// Profiling mode: one cell, a fixed number of iterations (the reference is the crate's own).
fn run_loop(options: &Options, (system, benchmark, dataset): &(String, String, String)) -> ! {
    let system = System::parse(system).unwrap_or_else(|| fail(&format!("unknown system {}", system)));
    let name = benchmark;
    let benchmark = Benchmark::parse(name).unwrap_or_else(|| fail(&format!("unknown benchmark {}", name)));
    let dataset = if dataset.starts_with("plist-") { dataset.clone() } else { format!("plist-{}", dataset) };
    let manifest = read_manifest(&options.data);
    let expected = *manifest.get(&dataset).unwrap_or_else(|| fail(&format!("{} is not in manifest.tsv", dataset)));
    let source = read_document(options, &dataset, Format::Binary);
    let document = read_document(options, &dataset, benchmark.format);
    let size = document.len();
    let reference = Fingerprint::of_value(&cells::decode_value(&source, Format::Binary).unwrap_or_else(|e| fail(&e)))
        .unwrap_or_else(|e| fail(&e));
    let mut cell = cells::make_cell(system, benchmark, document, &source, expected, &reference).unwrap_or_else(|e| fail(&e));
    let start = Clock::Cpu.now();
    for _ in 0..options.iterations {
        let result = (cell.run)().unwrap_or_else(|e| fail(&e));
        if cell.expected.map_or(result <= 0, |expected| result != expected) {
            fail(&format!("an iteration returned {}", result));
        }
    }
    let each = (Clock::Cpu.now() - start) / options.iterations as f64;
    eprintln!("{} {} {}: CPU {:.3} ms each ({:.1} MB/s)", name, dataset, options.iterations, each * 1e3, size as f64 / 1e6 / each);
    exit(0)
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.first().map(String::as_str) == Some("--memory-child") {
        run_memory_child(&arguments[1..]);
    }
    let options = parse_options(&arguments);
    if let Some(cell) = &options.loop_cell {
        run_loop(&options, cell);
    }
    match options.system {
        Some(system) => run_worker(system, &options),
        None => fail("expected --worker SYSTEM, --memory-child or --loop; see the comment at the top of src/main.rs"),
    }
}
