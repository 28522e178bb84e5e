// The clocks plist-bench times with (BenchSupport/Clocks.swift): the process's CPU time
// (CLOCK_PROCESS_CPUTIME_ID, user + system) or the monotonic wall clock, in seconds.

#[repr(C)]
struct Timespec {
    seconds: i64,
    nanoseconds: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, spec: *mut Timespec) -> i32;
}

const CLOCK_MONOTONIC: i32 = 1;
const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

#[derive(Clone, Copy)]
pub enum Clock {
    Cpu,
    Wall,
}

impl Clock {
    pub fn parse(name: &str) -> Option<Clock> {
        match name {
            "cpu" => Some(Clock::Cpu),
            "wall" => Some(Clock::Wall),
            _ => None,
        }
    }

    pub fn now(self) -> f64 {
        let id = match self {
            Clock::Cpu => CLOCK_PROCESS_CPUTIME_ID,
            Clock::Wall => CLOCK_MONOTONIC,
        };
        let mut spec = Timespec { seconds: 0, nanoseconds: 0 };
        // SAFETY: clock_gettime writes one timespec (two 64-bit fields on 64-bit Linux).
        unsafe { clock_gettime(id, &mut spec) };
        spec.seconds as f64 + spec.nanoseconds as f64 * 1e-9
    }
}
