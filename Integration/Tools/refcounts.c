// Counts the reference counting of every object a process touches: a library preloaded into request-probe by
// Integration/refcounts.sh (LD_PRELOAD), which interposes the Swift runtime's swift_retain, swift_release (and
// their _n forms) and swift_allocObject, and writes at exit, per object address: retains, releases, how many
// objects were allocated at that address, and the object's type. Calls made inside the Swift runtime itself
// do not go through the interposed symbols and are not counted; calls from Swift code are.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *(*Retain)(void *);
typedef void (*Release)(void *);
typedef void *(*RetainN)(void *, uint32_t);
typedef void (*ReleaseN)(void *, uint32_t);
typedef void *(*Allocate)(void *, size_t, size_t);
typedef struct { const char *data; size_t length; } TypeName;
extern TypeName swift_getTypeName(const void *metadata, int qualified);

enum { capacity = 1 << 22 };
struct Entry { void *address; const void *metadata; unsigned long retains, releases, allocations; };
static struct Entry *entries;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int counting;

// Looked up on first use: the runtime retains objects before this library's constructor runs.
static void *next(const char *symbol) { return dlsym(RTLD_NEXT, symbol); }

static struct Entry *entry(void *address) {
    uintptr_t hash = ((uintptr_t)address >> 4) * 0x9E3779B97F4A7C15ull >> 42;
    for (;; hash++) {
        struct Entry *candidate = &entries[hash & (capacity - 1)];
        if (candidate->address == address || candidate->address == NULL) {
            candidate->address = address;
            return candidate;
        }
    }
}

enum Event { retained, released, allocated };

static void record(void *object, enum Event event, unsigned long count) {
    if (!counting || (uintptr_t)object < 4096) return;
    pthread_mutex_lock(&mutex);
    struct Entry *found = entry(object);
    found->metadata = *(const void **)object;
    if (event == retained) found->retains += count;
    else if (event == released) found->releases += count;
    else found->allocations += 1;
    pthread_mutex_unlock(&mutex);
}

static void report(void) {
    counting = 0;
    const char *path = getenv("REFCOUNTS_OUT");
    FILE *out = fopen(path ? path : "refcounts.tsv", "w");
    if (!out) return;
    for (size_t i = 0; i < capacity; i++) {
        struct Entry *e = &entries[i];
        if (e->address == NULL || (e->retains == 0 && e->releases == 0)) continue;
        // Class metadata (kind 0, or an isa pointer) has a name; heap boxes and closure contexts (kinds
        // 0x400 and up) do not.
        uintptr_t kind = *(const uintptr_t *)e->metadata;
        if (kind == 0 || kind > 0x7ff) {
            TypeName name = swift_getTypeName(e->metadata, 1);
            fprintf(out, "%lu\t%lu\t%lu\t%.*s\n", e->retains, e->releases, e->allocations, (int)name.length,
                    name.data);
        } else {
            fprintf(out, "%lu\t%lu\t%lu\t<heap box, kind 0x%lx>\n", e->retains, e->releases, e->allocations,
                    (unsigned long)kind);
        }
    }
    fclose(out);
}

__attribute__((constructor)) static void start(void) {
    entries = calloc(capacity, sizeof *entries);
    counting = entries != NULL;
    atexit(report);
}

void *swift_retain(void *object) {
    static Retain real;
    if (!real) real = (Retain)next("swift_retain");
    record(object, retained, 1);
    return real(object);
}

void swift_release(void *object) {
    static Release real;
    if (!real) real = (Release)next("swift_release");
    record(object, released, 1);
    real(object);
}

void *swift_retain_n(void *object, uint32_t count) {
    static RetainN real;
    if (!real) real = (RetainN)next("swift_retain_n");
    record(object, retained, count);
    return real(object, count);
}

void swift_release_n(void *object, uint32_t count) {
    static ReleaseN real;
    if (!real) real = (ReleaseN)next("swift_release_n");
    record(object, released, count);
    real(object, count);
}

void *swift_allocObject(void *metadata, size_t size, size_t alignment) {
    static Allocate real;
    if (!real) real = (Allocate)next("swift_allocObject");
    void *object = real(metadata, size, alignment);
    record(object, allocated, 1);
    return object;
}
