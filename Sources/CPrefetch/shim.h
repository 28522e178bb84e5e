// A software prefetch (__builtin_prefetch), which Swift has no spelling for: the binary plist
// writer asks for the uniquing tables' slots a few values ahead, so that their cache misses
// overlap with the work on the values before them. A prefetch neither faults nor waits (a load
// in its place holds up the processor until the line arrives).
#ifndef STASIS_PREFETCH_SHIM_H
#define STASIS_PREFETCH_SHIM_H

static inline __attribute__((always_inline)) void stasis_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
