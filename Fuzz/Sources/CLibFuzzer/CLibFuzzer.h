// The one libFuzzer runtime function the fuzz targets call. It lives in compiler-rt's
// libclang_rt.fuzzer, which `-sanitize=fuzzer` links into every target.
#ifndef STASIS_CLIBFUZZER_H
#define STASIS_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's command line and runs the fuzzing loop (or replays the files named on it)
/// with `callback` as the target; returns the process exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
