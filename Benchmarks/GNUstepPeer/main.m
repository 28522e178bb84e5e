// gnustep-archive-peer: GNUstep Base's NSKeyedArchiver/NSKeyedUnarchiver on the item-store graph
// of GRAPH.md, for archive-bench (Benchmarks/KeyedArchive, GNUstepPeer.swift) and the
// interoperability test (Tests/KeyedArchiveTests/GNUstepInteropTests.swift).
//
//   gnustep-archive-peer bench N MIN-TIME WARM-UP [BINARY-ARCHIVE]   timed cells, one line each (below)
//   gnustep-archive-peer write binary|xml N PATH [objc-names]   archives the graph to PATH (objc-names:
//                                                     as PeerStore, PeerCategory, PeerItem, unmapped)
//   gnustep-archive-peer dump PATH                    unarchives PATH, prints the canonical dump (graph.m)
//   gnustep-archive-peer memory WARM-UP-PATH PATH N   peak memory unarchiving PATH (archive-bench's memory child)
//
// bench prints, per operation and format, a tab-separated line
//   cell <archive|unarchive> <binary|xml> <N> <CPU median s> <wall median s> <iterations> <archive bytes>
// or `unavailable <operation> <format> <N> <reason>`; the clock and method are archive-bench's
// (CLOCK_PROCESS_CPUTIME_ID, warm-up, then ≥ MIN-TIME s and ≥ 3 iterations, every result checked
// after the clock stops).
#import "graph.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpuNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double wallNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/// GNUstep Base 1.28's -setClassName:forClass: writes every mapped class as one `$classes` entry
/// (the name "Category", empty `$classes`), so its archive decodes to the wrong classes, in GNUstep
/// as in Stasis (GNUstepInteropTests). `write` maps the names as GRAPH.md asks (that archive is what
/// the interoperability test reads); `bench` times archiving under the Objective-C names
/// PeerStore, PeerCategory, PeerItem, whose archive GNUstep reads back correctly.
static BOOL mapArchivedNames = YES;

static void mapClassNames(id coder, BOOL archiving) {
  Class classes[3] = {[PeerStore class], [PeerCategory class], [PeerItem class]};
  NSString *names[3] = {@"Store", @"Category", @"Item"};
  for (int i = 0; i < 3; i++) {
    if (!archiving) [coder setClass:classes[i] forClassName:names[i]];
    else if (mapArchivedNames) [coder setClassName:names[i] forClass:classes[i]];
  }
}

static NSData *archiveStore(PeerStore *store, BOOL xml) {
  NSMutableData *data = [NSMutableData data];
  NSKeyedArchiver *archiver = [[NSKeyedArchiver alloc] initForWritingWithMutableData:data];
  [archiver setOutputFormat:xml ? NSPropertyListXMLFormat_v1_0 : NSPropertyListBinaryFormat_v1_0];
  mapClassNames(archiver, YES);
  [archiver encodeObject:store forKey:@"root"];
  [archiver finishEncoding];
  [archiver release];
  return data;
}

static PeerStore *unarchiveStore(NSData *data) {
  NSKeyedUnarchiver *unarchiver = [[NSKeyedUnarchiver alloc] initForReadingWithData:data];
  if (unarchiver == nil) return nil;
  mapClassNames(unarchiver, NO);
  PeerStore *store = [[unarchiver decodeObjectForKey:@"root"] retain];
  [unarchiver finishDecoding];
  [unarchiver release];
  return [store autorelease];
}

static NSString *checkArchive(NSData *data, BOOL xml) {
  const char *magic = xml ? "<?xml" : "bplist00";
  if (data.length < 1000 || memcmp(data.bytes, magic, strlen(magic)) != 0) {
    return [NSString stringWithFormat:@"wrote %lu bytes without the %s magic", (unsigned long)data.length, xml ? "XML" : "binary"];
  }
  return nil;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
  qsort(values, count, sizeof(double), compareDoubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/// What a cell times: archiving `store` or unarchiving `archive`. (GCC's Objective-C has no blocks.)
typedef struct {
  BOOL unarchiving, xml;
  PeerStore *store;
  NSData *archive;
  NSUInteger count;
} CellWork;

static id runCell(const CellWork *work) {
  return work->unarchiving ? (id)unarchiveStore(work->archive) : (id)archiveStore(work->store, work->xml);
}

/// Nil when the result holds, else what is wrong with it.
static NSString *checkCell(const CellWork *work, id result) {
  return work->unarchiving ? verifyGraph(result, work->count) : checkArchive(result, work->xml);
}

static void reportFailure(const CellWork *work, NSString *problem) {
  printf("failed\t%s\t%s\t%lu\t%s\n", work->unarchiving ? "unarchive" : "archive", work->xml ? "xml" : "binary",
         (unsigned long)work->count, [problem UTF8String]);
}

/// One cell: warm-up, then the timed iterations, each result checked after the clock stops.
static BOOL timeCell(const CellWork *work, double minTime, double warmUp, NSUInteger bytes) {
  double start = cpuNow();
  do {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    NSString *problem = [checkCell(work, runCell(work)) retain];
    [pool drain];
    if (problem) { reportFailure(work, problem); [problem release]; return NO; }
  } while (cpuNow() - start < warmUp);
  int capacity = 64, n = 0;
  double *times = malloc(capacity * sizeof(double)), *walls = malloc(capacity * sizeof(double)), total = 0;
  NSString *problem = nil;
  while (problem == nil && (n < 3 || total < minTime)) {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    double wall = wallNow(), cpu = cpuNow();
    id result = runCell(work);
    double elapsed = cpuNow() - cpu;
    if (n == capacity) {
      capacity *= 2;
      times = realloc(times, capacity * sizeof(double));
      walls = realloc(walls, capacity * sizeof(double));
    }
    walls[n] = wallNow() - wall;
    times[n++] = elapsed;
    total += elapsed;
    problem = [checkCell(work, result) retain];
    [pool drain];
  }
  if (problem) {
    reportFailure(work, problem);
    [problem release];
  } else {
    printf("cell\t%s\t%s\t%lu\t%.9f\t%.9f\t%d\t%lu\n", work->unarchiving ? "unarchive" : "archive", work->xml ? "xml" : "binary",
           (unsigned long)work->count, median(times, n), median(walls, n), n, (unsigned long)bytes);
    fflush(stdout);
  }
  free(times);
  free(walls);
  return problem == nil;
}

/// Binary archiving at N items is not timed: GNUstep Base 1.28's binary property-list writer takes
/// time growing with the square of the object count (1,000 items 6.4 s, 2,000 items 31 s CPU on the
/// project's machine, XML 0.03 s and 0.06 s), so a 10,000-item cell would take over ten minutes. The
/// cell reports one untimed-by-the-harness 1,000-item archive instead, and the binary unarchive cell
/// reads BINARY-ARCHIVE (another writer's binary archive of the same graph) when given.
static void reportBinaryArchiving(NSUInteger count) {
  NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
  PeerStore *small = [PeerStore storeWithCount:1000];
  double start = cpuNow();
  NSData *data = archiveStore(small, NO);
  double elapsed = cpuNow() - start;
  printf("unavailable\tarchive\tbinary\t%lu\tGNUstep's binary writer is quadratic: 1,000 items took %.1f s CPU (%lu bytes)\n",
         (unsigned long)count, elapsed, (unsigned long)data.length);
  fflush(stdout);
  [pool drain];
}

static int bench(NSUInteger count, double minTime, double warmUp, const char *binaryPath) {
  PeerStore *store = [PeerStore storeWithCount:count];
  int status = 0;
  mapArchivedNames = NO;
  reportBinaryArchiving(count);
  for (int xml = 0; xml < 2; xml++) {
    const char *format = xml ? "xml" : "binary";
    NSData *archive = nil;
    if (xml) {
      archive = [archiveStore(store, YES) retain];
    } else if (binaryPath) {
      archive = [[NSData alloc] initWithContentsOfFile:[NSString stringWithUTF8String:binaryPath]];
    } else {
      printf("unavailable\tunarchive\tbinary\t%lu\tno binary archive given\n", (unsigned long)count);
      continue;
    }
    NSString *problem = nil;
    @try {
      problem = (xml ? checkArchive(archive, YES) : nil) ?: verifyGraph(unarchiveStore(archive), count);
    } @catch (NSException *exception) {
      // GNUstep Base 1.28's binary reader knows UIDs of one and two bytes only: an archive of more
      // than 65,535 objects (UIDs written in four bytes, as CF writes them) raises
      // "Unknown control byte = 131".
      printf("unavailable\tunarchive\t%s\t%lu\tGNUstep cannot read the archive: %s: %s\n", format, (unsigned long)count,
             [[exception name] UTF8String], [[exception reason] UTF8String]);
      fflush(stdout);
      [archive release];
      continue;
    }
    if (problem) {
      printf("failed\t%s\t%s\t%lu\t%s\n", xml ? "archive" : "unarchive", format, (unsigned long)count, [problem UTF8String]);
      status = 1;
      [archive release];
      continue;
    }
    NSUInteger bytes = archive.length;
    CellWork archiving = {NO, xml, store, archive, count}, unarchiving = {YES, xml, store, archive, count};
    if (xml && !timeCell(&archiving, minTime, warmUp, bytes)) status = 1;
    if (!timeCell(&unarchiving, minTime, warmUp, bytes)) status = 1;
    [archive release];
  }
  return status;
}

/// A field of /proc/self/status in bytes (its kB figure × 1024), or 0.
static long procStatus(const char *field) {
  FILE *file = fopen("/proc/self/status", "r");
  if (!file) return 0;
  char line[256];
  long value = 0;
  size_t length = strlen(field);
  while (fgets(line, sizeof line, file)) {
    if (strncmp(line, field, length) == 0 && line[length] == ':') { value = atol(line + length + 1) * 1024; break; }
  }
  fclose(file);
  return value;
}

static int memory(const char *warmPath, const char *path, NSUInteger count) {
  NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
  PeerStore *warm = unarchiveStore([NSData dataWithContentsOfFile:[NSString stringWithUTF8String:warmPath]]);
  if (warm == nil) { fprintf(stderr, "could not unarchive %s\n", warmPath); return 2; }
  [pool drain];
  FILE *clear = fopen("/proc/self/clear_refs", "w");
  int reset = clear && fputs("5", clear) >= 0;
  if (clear && fclose(clear) != 0) reset = 0;
  long before = procStatus("VmRSS");
  NSData *data = [NSData dataWithContentsOfFile:[NSString stringWithUTF8String:path]];
  long loaded = procStatus("VmRSS");
  PeerStore *store = unarchiveStore(data);
  long peak = procStatus("VmHWM");
  NSString *problem = verifyGraph(store, count);
  if (problem) { fprintf(stderr, "%s\n", [problem UTF8String]); return 2; }
  printf("before=%ld loaded=%ld peak=%ld reset=%d\n", before, loaded, peak, reset);
  return 0;
}

int main(int argc, char **argv) {
  [[NSAutoreleasePool alloc] init];  // the process's outermost pool, never drained
  {
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "bench") == 0) {
      return bench(strtoul(argv[2], NULL, 10), atof(argv[3]), atof(argv[4]), argc == 6 ? argv[5] : NULL);
    }
    if ((argc == 5 || (argc == 6 && strcmp(argv[5], "objc-names") == 0)) && strcmp(argv[1], "write") == 0) {
      NSUInteger count = strtoul(argv[3], NULL, 10);
      mapArchivedNames = argc == 5;
      BOOL xml = strcmp(argv[2], "xml") == 0;
      NSData *data = archiveStore([PeerStore storeWithCount:count], xml);
      return [data writeToFile:[NSString stringWithUTF8String:argv[4]] atomically:NO] ? 0 : 2;
    }
    if (argc == 3 && strcmp(argv[1], "dump") == 0) {
      NSData *data = [NSData dataWithContentsOfFile:[NSString stringWithUTF8String:argv[2]]];
      PeerStore *store = nil;
      @try {
        store = data ? unarchiveStore(data) : nil;
      } @catch (NSException *exception) {
        fprintf(stderr, "%s: %s\n", [[exception name] UTF8String], [[exception reason] UTF8String]);
        return 3;
      }
      if (![store isKindOfClass:[PeerStore class]]) { fprintf(stderr, "no Store at the root\n"); return 3; }
      dumpGraph(store, stdout);
      return 0;
    }
    if (argc == 5 && strcmp(argv[1], "memory") == 0) {
      return memory(argv[2], argv[3], strtoul(argv[4], NULL, 10));
    }
  }
  fprintf(stderr, "usage: gnustep-archive-peer bench N MIN-TIME WARM-UP [BINARY-ARCHIVE] | write binary|xml N PATH [objc-names] | dump PATH | memory WARM PATH N\n");
  return 64;
}
