#!/bin/sh
# softfp.sh - ns per operation of directed rounding: RP through arith/softfp.c against RN on
# the host and against a fesetround() switch around each host operation (the way before
# softfp). Usage: sh bench/softfp.sh [BIN] [BUILD]   (BUILD holds tests/tools/softfpbench)
BUILD=${2:-build}
exec "$BUILD/tests/tools/softfpbench"
