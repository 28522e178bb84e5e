// The child process of the restoration tests and of the process-death harness: the sample app
// (tabs, a navigation stack, a detail screen with edited text, a table selection), restored at
// launch, then driven to random states and sent to the background (which saves) again and again
// until it is killed.
//
//   stasis-restoration-child --folder DIR [--seed N] [--items N] [--saves N] [--crash-on-decode] [--secure]
//
// Prints, one line each, flushed at once:
//   OUTCOME <restore outcome>        then STATE <line> for each line of the restored state, then READY
//   EXPECT <generation> <line>       the state about to be saved, line by line
//   SAVING <generation>              the save starts (entering the background)
//   SAVED <generation>               the save is complete (the snapshot is on disk)
//   DONE                             after --saves saves (0: forever)
import Foundation
import Lifecycle
import Restoration
import RestorationSampleApp

func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
      if written <= 0 { exit(3) }
      offset += written
    }
  }
}

var folderPath: String?
var seed: UInt64 = 1
var itemCount = 50
var saves = 0
var secure = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--folder": folderPath = arguments.next()
  case "--seed": seed = UInt64(arguments.next() ?? "") ?? 1
  case "--items": itemCount = Int(arguments.next() ?? "") ?? 50
  case "--saves": saves = Int(arguments.next() ?? "") ?? 0
  case "--crash-on-decode": DetailViewController.crashesWhenDecoding = true
  case "--secure": secure = true
  default:
    FileHandle.standardError.write(Data("stasis-restoration-child: unknown argument \(argument)\n".utf8))
    exit(2)
  }
}
guard let folderPath else {
  FileHandle.standardError.write(Data("stasis-restoration-child: --folder DIR is required\n".utf8))
  exit(2)
}

let app = SampleApp(folder: SavedStateFolder(path: folderPath), itemCount: itemCount, secure: secure)
do {
  try app.lifecycle.launch()
} catch {
  FileHandle.standardError.write(Data("stasis-restoration-child: \(error)\n".utf8))
  exit(1)
}
say("OUTCOME \(app.restoration.outcome)")
for line in app.delegate.describe() { say("STATE \(line)") }
say("READY")

var random = SampleRandom(seed: seed)
var done = 0
while saves == 0 || done < saves {
  for _ in 0..<Int.random(in: 1...3, using: &random) { app.delegate.mutate(&random) }
  app.delegate.generation += 1
  let generation = app.delegate.generation
  for line in app.delegate.describe() { say("EXPECT \(generation) \(line)") }
  say("SAVING \(generation)")
  try? app.lifecycle.enterBackground()
  if let report = app.restoration.lastPreservation, report.skippedBecause != nil || report.nodeCount == 0 {
    say("SAVE-FAILED \(generation) \(report.skippedBecause ?? "no nodes")")
  }
  say("SAVED \(generation)")
  try? app.lifecycle.enterForeground()
  done += 1
}
say("DONE")
exit(0)
