# pulse — top-level build. `make` builds build/pulse, `make check` runs every
# test, `make demo` records a bundled workload and prints its profile.
CC       ?= gcc
BUILD    ?= build
SANITIZE ?=
TSAN_CC  ?= clang
# make install [PREFIX=/usr/local] [DESTDIR=]: the binary and its manual pages
PREFIX   ?= /usr/local
DESTDIR  ?=
bindir   := $(PREFIX)/bin
man1dir  := $(PREFIX)/share/man/man1
MAN1     := $(sort $(wildcard doc/*.1))

PKGS     := libelf libdw libtraceevent libtracefs libzstd libprotobuf-c zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	    -Wno-missing-field-initializers -D_GNU_SOURCE -Iinclude -Ilib $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lipt -liberty -lpthread -lm

ifneq ($(SANITIZE),)
BUILD    := build-san
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

LIB_SRCS := $(sort $(wildcard lib/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
# pprof's profile.proto compiled by protoc-c (lib/convert/pprof*.c), never in git
PB_DIR   := $(BUILD)/gen
PB_SRC   := $(PB_DIR)/profile.pb-c.c
LIB_OBJS += $(PB_DIR)/profile.pb-c.o
CFLAGS   += -I$(PB_DIR)
CLI_SRCS := $(sort $(wildcard cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)
WL_SRCS  := $(sort $(wildcard tests/workloads/*.c))
WL_BINS  := $(WL_SRCS:tests/workloads/%.c=$(BUILD)/workloads/%)
TOOL_SRCS := $(sort $(wildcard tests/tools/*.c))
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tools/%)
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)

.PHONY: all check demo bench setup clean tsan fuzz install examples
all: $(BUILD)/pulse $(EXAMPLE_BINS)

# Programs that use libpulse as a library (<pulse/counter.h>, ...).
examples: $(EXAMPLE_BINS)

$(BUILD)/libpulse.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/pulse: $(CLI_OBJS) $(BUILD)/libpulse.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libpulse.a $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(PB_SRC): lib/convert/profile.proto
	@mkdir -p $(PB_DIR)
	protoc-c --proto_path=lib/convert --c_out=$(PB_DIR) $<
$(PB_DIR)/profile.pb-c.h: $(PB_SRC)
$(PB_DIR)/profile.pb-c.o: $(PB_SRC)
	$(CC) $(CFLAGS) -c -o $@ $<
$(filter $(BUILD)/lib/convert/pprof%,$(LIB_OBJS)): $(PB_DIR)/profile.pb-c.h

$(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/test.h $(BUILD)/libpulse.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libpulse.a $(LDLIBS)

# Workloads are built without sanitizers and with frame pointers so that
# their call trees are what the tests expect.
WL_FLAGS := -O1 -g -fno-omit-frame-pointer -fno-inline -fno-optimize-sibling-calls
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	gcc $(WL_FLAGS) -o $@ $<

# dwarf-tree: no frame pointers, its leaves in a library beside it (found
# by $$ORIGIN); dwarf-tree-fp: the same program with frame pointers.
WL_BINS  += $(BUILD)/workloads/dwarf-tree-fp
DWT_FLAGS := -O1 -g -fno-inline -fno-optimize-sibling-calls
$(BUILD)/workloads/libdwarf-tree.so: tests/workloads/dwarf-tree-lib/leaf.c
	@mkdir -p $(dir $@)
	gcc $(DWT_FLAGS) -fomit-frame-pointer -shared -fPIC -o $@ $<
$(BUILD)/workloads/libdwarf-tree-fp.so: tests/workloads/dwarf-tree-lib/leaf.c
	@mkdir -p $(dir $@)
	gcc $(DWT_FLAGS) -fno-omit-frame-pointer -shared -fPIC -o $@ $<
$(BUILD)/workloads/dwarf-tree: tests/workloads/dwarf-tree.c $(BUILD)/workloads/libdwarf-tree.so
	gcc $(DWT_FLAGS) -fomit-frame-pointer -o $@ $< -L$(BUILD)/workloads -ldwarf-tree \
		-Wl,-rpath,'$$ORIGIN'
$(BUILD)/workloads/dwarf-tree-fp: tests/workloads/dwarf-tree.c $(BUILD)/workloads/libdwarf-tree-fp.so
	gcc $(DWT_FLAGS) -fno-omit-frame-pointer -o $@ $< -L$(BUILD)/workloads -ldwarf-tree-fp \
		-Wl,-rpath,'$$ORIGIN'

# twins: a static work() in the program and another in its library.
$(BUILD)/workloads/libtwins.so: tests/workloads/twins-lib/work.c
	@mkdir -p $(dir $@)
	gcc $(WL_FLAGS) -shared -fPIC -o $@ $<
$(BUILD)/workloads/twins: tests/workloads/twins.c $(BUILD)/workloads/libtwins.so
	gcc $(WL_FLAGS) -o $@ $< \
		-L$(BUILD)/workloads -ltwins -Wl,-rpath,'$$ORIGIN'

$(BUILD)/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) $(BUILD)/libpulse.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libpulse.a $(LDLIBS)

$(BUILD)/examples/%: examples/%.c $(BUILD)/libpulse.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libpulse.a $(LDLIBS)

# The binary finds its pages at <bindir>/../share/man/man1 (cli/help.c).
install: $(BUILD)/pulse
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir)
	install -m 755 $(BUILD)/pulse $(DESTDIR)$(bindir)/pulse
	install -m 644 $(MAN1) $(DESTDIR)$(man1dir)

setup:
	@scripts/setup

check: setup
	@$(MAKE) --no-print-directory build-tests
	@BUILD=$(BUILD) tests/run-tests.sh

build-tests: $(BUILD)/pulse $(EXAMPLE_BINS) $(UNIT_BINS) $(WL_BINS) $(TOOL_BINS)

# The ring consumer/model stress test, the aggregation threads, the
# writer's O_DIRECT thread, the counter page's seqlock model and the unwinder's
# shared CFI caches under ThreadSanitizer: x86 keeps loads and stores in order, so only TSan sees a
# missing acquire/release.
tsan: $(PB_SRC)
	@mkdir -p build-tsan
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		-o build-tsan/test-ring tests/unit/test-ring.c lib/ring/*.c lib/core/*.c -lpthread
	PULSE_RING_RECORDS=$${PULSE_RING_RECORDS:-2000000} build-tsan/test-ring
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		-o build-tsan/test-aux-ring tests/unit/test-aux-ring.c lib/ring/*.c lib/core/*.c -lpthread
	PULSE_AUX_ROUNDS=$${PULSE_AUX_ROUNDS:-200} build-tsan/test-aux-ring
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		$(PKG_CFLAGS) -I$(PB_DIR) -o build-tsan/test-hist-pool tests/unit/test-hist-pool.c $(LIB_SRCS) $(PB_SRC) \
		$(PKG_LIBS) -lipt -liberty -lpthread -lm
	build-tsan/test-hist-pool
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		$(PKG_CFLAGS) -I$(PB_DIR) -o build-tsan/test-writer tests/unit/test-writer.c $(LIB_SRCS) $(PB_SRC) \
		$(PKG_LIBS) -lipt -liberty -lpthread -lm
	build-tsan/test-writer
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		-o build-tsan/test-counter-page tests/unit/test-counter-page.c lib/counter/page.c lib/event/counts.c \
		lib/event/cells.c lib/event/open.c lib/core/*.c -lpthread
	PULSE_PAGE_UPDATES=$${PULSE_PAGE_UPDATES:-100000} build-tsan/test-counter-page
	$(TSAN_CC) -std=gnu11 -O1 -g -fsanitize=thread -D_GNU_SOURCE -Iinclude -Ilib -Itests/unit \
		$(PKG_CFLAGS) -o build-tsan/test-unwind tests/unit/test-unwind.c lib/unwind/*.c \
		lib/symbols/*.c lib/core/*.c $(PKG_LIBS) -liberty -lpthread -lm
	build-tsan/test-unwind

# libFuzzer target on the reader (tests/fuzz/run-fuzz.sh runs it): the
# library, built with the fuzzer and ASan/UBSan. The whole of it, found by
# rule, so that splitting a file never breaks the link.
FUZZ_CC ?= clang
FUZZ_SRCS := $(LIB_SRCS) $(PB_SRC)
fuzz: build-fuzz/fuzz-reader build-fuzz/fuzz-aux build-fuzz/fuzz-pt build-fuzz/fuzz-convert \
	build-fuzz/fuzz-offcpu build-fuzz/fuzz-unwind

# the reader, the AUX records and dumpers, data convert --to-json, the
# off-CPU bookkeeping: each target is one tests/fuzz/fuzz-NAME.c on the
# whole library (fuzz-pt below, on the decoder's walk alone, is its own rule)
build-fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_SRCS) $(wildcard include/pulse/*.h)
	@mkdir -p build-fuzz
	$(FUZZ_CC) -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -D_GNU_SOURCE -Iinclude -Ilib -I$(PB_DIR) $(PKG_CFLAGS) \
		-o $@ $< $(FUZZ_SRCS) $(PKG_LIBS) -lipt -liberty -lpthread -lm

# the Intel PT decoder's walk on arbitrary trace bytes
build-fuzz/fuzz-pt: tests/fuzz/fuzz-pt.c $(wildcard lib/aux/pt-*.c lib/aux/pt-*.h)
	@mkdir -p build-fuzz
	$(FUZZ_CC) -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -D_GNU_SOURCE -Iinclude -Ilib \
		-o $@ tests/fuzz/fuzz-pt.c lib/aux/pt-decoder.c lib/aux/pt-walk.c lib/aux/pt-sync.c \
		lib/aux/pt-time.c lib/aux/pt-insn.c -lipt

demo: setup
	@$(MAKE) --no-print-directory $(BUILD)/pulse $(WL_BINS)
	$(BUILD)/pulse record -g -o $(BUILD)/demo.data -- $(BUILD)/workloads/calltree
	$(BUILD)/pulse report -i $(BUILD)/demo.data --stdio

bench: all $(WL_BINS) $(BUILD)/bench/counter-read $(BUILD)/bench/aux-capture
	bench/run-all.sh

$(BUILD)/bench/%: bench/%.c $(BUILD)/libpulse.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libpulse.a $(LDLIBS)

clean:
	rm -rf build build-san build-tsan build-fuzz

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
