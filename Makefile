# warpsim — one build for the translator (warpc) and the simulator (warpsim).
#
#   make              bin/warpc, bin/warpsim
#   make check        every test (Check unit tests, golden and integration scripts)
#   make check-asan   the same suite built with ASan+UBSan into build-asan/
#   make demo         the main job on the bundled example
#   make bench        benchmarks, results in bench/
#   make fuzz         bounded parser fuzzing (clang libFuzzer)
#   make fuzz-diff    N=... generated programs: SM model against the oracle (tests/README.md)
#   make check-valgrind  the suite under valgrind memcheck
#   make check-browser   warpsim --report's page in headless Chromium (opt-in; report-screenshot: docs/img/report.png)
#   make ptxas-reference NVIDIA ptxas 11.8's sm_35 listings of the corpus, then make fidelity (opt-in, needs the network once)
#   make fidelity     docs/fidelity.md: warpc's decisions against those listings (no NVIDIA tool)
#   make explore      docs/explore.md: every branch decision of the corpus flipped and searched
#   make docs-check   the generated docs (fidelity, calibration, explore) current, else fail;
#                     so are the outputs README.md quotes (make docs-excerpts alone)
#   make install      PREFIX=/usr/local DESTDIR=
#
# Each module directory (isa frontend backend sim oracle) becomes one static library; every
# .c, .l and .y in it is part of that library, so adding a file needs no edit here.
# BUILD and BIN may be overridden to keep several builds apart (check-asan does).

VERSION  := 0.1.0
.DEFAULT_GOAL := all
BUILD    ?= build
BIN      ?= bin
PREFIX   ?= /usr/local
CC       ?= cc
CFLAGS   ?= -O2 -g
LDFLAGS  ?=
WARN     := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes \
            -Wstrict-prototypes -Wswitch-enum -Wno-unused-parameter
ifeq ($(CI),true)
WARN     += -Werror
endif
MODULES  := opt isa frontend arith device backend sim report oracle cli
# link order: users before what they use
LINKORDER := cli oracle report backend frontend sim device arith isa opt
CPPFLAGS += -pthread -D_POSIX_C_SOURCE=200809L -DWARPSIM_VERSION='"$(VERSION)"' -I. \
            $(addprefix -I$(BUILD)/gen/,$(MODULES))
LDLIBS    = -lm -lz $(JANSSON_LIBS) -pthread

# ---------------------------------------------------------------- dependencies
# Tools and libraries the build needs, with the Debian package that provides each.
NEED_CMDS := flex:flex bison:bison pkg-config:pkg-config xmllint:libxml2-utils parallel:parallel
NEED_PKGS := check:check zlib:zlib1g-dev jansson:libjansson-dev
DEPSTAMP  := $(BUILD)/.deps-ok

$(DEPSTAMP):
	@missing=""; \
	for p in $(NEED_CMDS); do command -v $${p%%:*} >/dev/null 2>&1 || missing="$$missing $${p#*:}"; done; \
	for p in $(NEED_PKGS); do pkg-config --exists $${p%%:*} 2>/dev/null || missing="$$missing $${p#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing missing build dependencies:$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "error: missing build dependencies:$$missing" >&2; \
	    echo "install them with:  sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi
	@mkdir -p $(@D) && touch $@

CHECK_CFLAGS   = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS     = $(shell pkg-config --libs check 2>/dev/null)
JANSSON_CFLAGS = $(shell pkg-config --cflags jansson 2>/dev/null)
JANSSON_LIBS   = $(shell pkg-config --libs jansson 2>/dev/null)

# ---------------------------------------------------------------- libraries
# $(call mod_objs,M): objects of module M, including its flex/bison outputs
mod_c    = $(wildcard $(1)/*.c)
mod_l    = $(wildcard $(1)/*.l)
mod_y    = $(wildcard $(1)/*.y)
mod_objs = $(patsubst %.c,$(BUILD)/%.o,$(call mod_c,$(1))) \
           $(patsubst $(1)/%.y,$(BUILD)/gen/$(1)/%.tab.o,$(call mod_y,$(1))) \
           $(patsubst $(1)/%.l,$(BUILD)/gen/$(1)/%.lex.o,$(call mod_l,$(1)))
mod_gen_h = $(patsubst $(1)/%.y,$(BUILD)/gen/$(1)/%.tab.h,$(call mod_y,$(1))) \
            $(patsubst $(1)/%.l,$(BUILD)/gen/$(1)/%.lex.h,$(call mod_l,$(1)))

LIBS    := $(foreach m,$(LINKORDER),$(BUILD)/lib$(m).a)
GEN_H   := $(foreach m,$(MODULES),$(call mod_gen_h,$(m)))
ALL_OBJS := $(foreach m,$(MODULES),$(call mod_objs,$(m)))

define MODULE_RULES
$(BUILD)/lib$(1).a: $(call mod_objs,$(1))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(eval $(call MODULE_RULES,$(m))))

$(BUILD)/%.o: %.c $(DEPSTAMP) | $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(JANSSON_CFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@
# the timing model's cycle loop at -O3 (2% fewer host instructions on every bench row:
# bench/results.md, twentieth session); CFLAGS given on the command line (the ASan build's)
# stay as given
$(BUILD)/sim/tsm.o: CFLAGS += -O3

$(BUILD)/gen/%.tab.c $(BUILD)/gen/%.tab.h: %.y $(DEPSTAMP)
	@mkdir -p $(@D)
	bison -Wall -Werror --defines=$(BUILD)/gen/$*.tab.h -o $(BUILD)/gen/$*.tab.c $<

$(BUILD)/gen/%.lex.c $(BUILD)/gen/%.lex.h: %.l $(DEPSTAMP)
	@mkdir -p $(@D)
	flex --header-file=$(BUILD)/gen/$*.lex.h -o $(BUILD)/gen/$*.lex.c $<

# generated scanners and parsers are compiled without the pedantic set
$(BUILD)/gen/%.o: $(BUILD)/gen/%.c | $(GEN_H)
	$(CC) $(CPPFLAGS) -std=c11 -w $(CFLAGS) -MMD -MP -c $< -o $@

# ---------------------------------------------------------------- programs
PROGS := $(BIN)/warpc $(BIN)/warpsim

all: $(PROGS)

$(BIN)/%: $(BUILD)/tools/%.o $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

# ---------------------------------------------------------------- tests
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TEST_HELPERS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/helper_*.c))
SCRIPTS   := $(sort $(wildcard tests/run-*.sh))
TOOLS_T   := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(wildcard tests/tools/*.c))

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(DEPSTAMP) | $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CHECK_CFLAGS) $(JANSSON_CFLAGS) $(WARN) -Wno-missing-prototypes $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $(TEST_HELPERS) $(LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_HELPERS) $(LIBS) $(CHECK_LIBS) $(JANSSON_LIBS) $(LDLIBS)

# small test tools (generators, JSON checkers): tests/tools/NAME.c -> $(BUILD)/tests/tools/NAME
$(BUILD)/tests/tools/%.o: tests/tools/%.c $(DEPSTAMP) | $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(JANSSON_CFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/tests/tools/%: $(BUILD)/tests/tools/%.o $(LIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(JANSSON_LIBS) $(LDLIBS)
# the random PTX generator (issue 9): tests/gen/*.c are linked into tests/tools/gen, which
# needs only the frontend and the oracle (and what they use), not the translator
GEN_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/gen/*.c))
GEN_LIBS := $(foreach m,oracle frontend sim device arith isa opt,$(BUILD)/lib$(m).a)
$(BUILD)/tests/tools/gen: $(BUILD)/tests/tools/gen.o $(GEN_OBJS) $(GEN_LIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(GEN_OBJS) $(GEN_LIBS) $(LDLIBS)
-include $(GEN_OBJS:.o=.d) $(BUILD)/tests/tools/gen.d
# fdrun: the fuzz-diff inner loop in one process (generator, oracle, translator, SM model)
$(BUILD)/tests/tools/fdrun: $(BUILD)/tests/tools/fdrun.o $(GEN_OBJS) $(LIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(GEN_OBJS) $(LIBS) $(LDLIBS)
-include $(BUILD)/tests/tools/fdrun.d
-include $(TOOLS_T:=.d)

tests: $(PROGS) $(UNIT_BINS) $(TOOLS_T)

# Every unit test binary and every tests/run-*.sh script runs; the summary line counts them.
# The suites are independent (each works in its own temporary directory), so tests/check.sh
# runs CHECK_JOBS of them at once (default: the host's cores) and prints each one's output
# whole, in this order, as it would appear run one after another.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: tests
	@BIN=$(BIN) BUILD=$(BUILD) CK_VERBOSITY=minimal CK_DEFAULT_TIMEOUT=60 \
	  sh tests/check.sh $(CHECK_JOBS) $(UNIT_BINS) $(SCRIPTS)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-asan:
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(MAKE) check BUILD=build-asan BIN=build-asan/bin CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)"

# ---------------------------------------------------------------- demo
demo: $(PROGS)
	@sh examples/demo.sh $(BIN)

# warpsim --report's pages in headless Chromium (opt-in: needs Debian's chromium; tests/browser)
check-browser: $(PROGS)
	@sh tests/browser/check.sh $(BIN)

# the same check, then docs/img/report.png, the screenshot docs/report.md shows
report-screenshot: $(PROGS)
	@sh tests/browser/check.sh $(BIN) docs/img/report.png

# rewrite traces/ golden traces and line statistics (review the diff before committing)
golden-traces: $(PROGS)
	@UPDATE=1 BIN=$(BIN) BUILD=$(BUILD) sh tests/run-trace.sh

# ---------------------------------------------------------------- bench, fuzz
bench: $(PROGS) $(TOOLS_T)
	@sh bench/run.sh $(BIN) $(BUILD)

fuzz:
	@sh tests/fuzz/run.sh $(or $(SECONDS_PER_TARGET),60)

# differential fuzzing (issue 9): N generated programs from seed FROM on the SM model at every
# predication threshold and scheduler against the oracle; differences are shrunk into
# tests/regress/ (tests/README.md). Env SIZE, JOBS, PMAX, SCHEDS: see tests/fuzzdiff/fuzzdiff.sh
N    ?= 1000
FROM ?= 1
fuzz-diff: $(PROGS) $(BUILD)/tests/tools/gen $(BUILD)/tests/tools/fdrun
	@BIN=$(BIN) BUILD=$(BUILD) sh tests/fuzzdiff/fuzzdiff.sh $(FROM) $(N)

# real-world PTX (issue 15): translate every .ptx under REAL_PTX (a folder on this machine,
# never committed; tests/real/README.md) and print translated/failed with the first located
# error per file; fails on a crash, a time-out or an unlocated error, or under MIN percent
REAL_PTX ?= /work/realptx-corpus
real-ptx: $(PROGS)
	@BIN=$(BIN) sh tests/real/run.sh $(REAL_PTX)

# every kernel of the real-world PTX under REAL_PTX on the SM model and on the oracle, with a
# launch made from its parameter list, the output buffers compared (tests/real/diff.sh)
real-diff: $(PROGS)
	@BIN=$(BIN) sh tests/real/diff.sh $(REAL_PTX)

# warpc's decisions against ptxas 11.8's on the real-world sets compiled for sm_35 (opt-in:
# needs REAL_PTX and CUDA 11.8, fetched as ptxas-reference does): docs/fidelity.md,
# "Real-world kernels, held out"
real-fidelity: $(PROGS)
	@BIN=$(BIN) sh tests/real/fidelity.sh $(REAL_PTX)

# the suite under valgrind memcheck (tests/valgrind.sh)
check-valgrind: tests
	@BIN=$(BIN) BUILD=$(BUILD) sh tests/valgrind.sh

# regenerate tests/ptx from tests/cuda where nvcc exists (a no-op elsewhere)
NVCC ?= $(firstword $(wildcard /usr/local/cuda/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
fixtures:
	@sh tests/cuda/fixtures.sh "$(NVCC)"

# ---------------------------------------------------------------- install
# ptxas 11.8's sm_35 listings of the corpus into tests/ptxas-ref (tests/ptxas-ref/README.md);
# opt-in, never part of check: it fetches NVIDIA's toolkit once into CUDA118 (a cache folder);
# it ends with make fidelity, so one command renews the listings and docs/fidelity.md
ptxas-reference:
	@sh tests/ptxas-ref/generate.sh
	@$(MAKE) --no-print-directory fidelity

# docs/fidelity.md's generated part: warpc --compare over the corpus and the hammock families
fidelity: $(PROGS)
	@BIN=$(BIN) sh tests/ptxas-ref/fidelity.sh

# docs/calibration.md and bench/micro/results.txt: the microbenchmarks under fermi.cfg and
# kepler.cfg beside their published figures (bench/micro/calib.sh; tests/run-micro.sh pins them)
micro: $(PROGS)
	@sh bench/micro/calib.sh $(BIN)

# docs/explore.md: warpsim --explore over the kernel corpus (tests/explore/, about a minute)
explore: $(PROGS) $(BUILD)/tests/tools/exploresum
	@BIN=$(BIN) BUILD=$(BUILD) sh tests/explore/make.sh

# the generated documents current: fidelity, micro and explore rerun; fails when one of
# their files changed (.ci/run runs it after check; the new text is left to commit), or when
# output README.md, docs/report.md or tests/explore/head.md quotes is stale (docs-excerpts)
docs-check: $(PROGS) $(BUILD)/tests/tools/exploresum
	@MAKE="$(MAKE)" sh tests/docs-check.sh BIN=$(BIN) BUILD=$(BUILD)

docs-excerpts: $(PROGS)
	@sh tests/docs-excerpts.sh BIN=$(BIN)

install: $(PROGS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/warpsim/configs \
	           $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard sim/configs/*.cfg) $(DESTDIR)$(PREFIX)/share/warpsim/configs/
	install -m 644 docs/warpc.1 docs/warpsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-asan build-* bin

.PHONY: all check check-asan check-valgrind check-browser report-screenshot tests demo bench micro fuzz fuzz-diff real-ptx real-diff real-fidelity fixtures ptxas-reference \
        fidelity explore docs-check docs-excerpts install clean
.SECONDARY:
.DELETE_ON_ERROR:

-include $(ALL_OBJS:.o=.d) $(UNIT_BINS:$(BUILD)/tests/%=$(BUILD)/tests/unit/%.d) $(TEST_HELPERS:.o=.d)
# the programs' own objects too: tools/*.c include cli.h and the structs it holds
-include $(PROGS:$(BIN)/%=$(BUILD)/tools/%.d)
