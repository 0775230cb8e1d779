// hammocks.cu - the kernel of `make demo`: four hammocks whose best translation differs on
// purpose, so that no single --predicate-max threshold is right for all of them. By number
// of `warpc --explain` (#1 and #6 are the loop's own branches):
//   #2  a short if that splits nearly every warp        predicating pays (predicated at 7)
//   #3  an if/else of 12 and 10 instructions that       predicating pays (a branch at 7)
//       splits nearly every warp
//   #4  a short if whose condition is rare: a whole     branching pays (predicated at 7)
//       warp almost always skips it
//   #5  a long if whose condition is the same for the   branching pays (a branch at 7)
//       whole warp in practice (it depends on the warp's
//       number), though the translator cannot prove it
//
// Each thread runs `rounds` rounds of a per-thread pseudo-random stream h; the hammocks test
// its bits. The stores to seen[] keep nvcc from turning the short ifs into selp.
// `warpsim --explore` measures every flip; docs/explore.md and README.md show the figures.
// Regenerate examples/hammocks.ptx with `make fixtures` where nvcc exists.

extern "C" __global__ void hammocks(const unsigned *in, unsigned *out, unsigned *seen, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = in[i];
    unsigned acc = h;
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        h = h * 1664525u + 1013904223u;          // the thread's next pseudo-random number

        if (h & 0x100) {                         // #2 short, half the lanes: splits the warp
            acc = (acc ^ h) * 3u;
            seen[i] = r;
        }

        if (h & 0x200) {                         // #3 if/else, half the lanes
            acc = acc * 5u + (h >> 7);
            acc ^= acc >> 3;
            acc += 0x9e37u;
            acc = acc * 13u + (h >> 3);
            acc ^= acc >> 9;
            acc += h;
        } else {
            acc = acc * 9u - (h >> 5);
            acc ^= acc << 2;
            acc -= 0x7f4au;
            acc = acc * 17u - (h >> 11);
            acc ^= acc << 6;
            acc -= h;
        }

        if ((h >> 22) == 0x123u) {               // #4 short, one lane in 1024
            acc = (acc ^ 0x5bd1e995u) * 7u;
            seen[i] = ~r;
        }

        if (((i >> 5) + r) % 2 == 0) {           // #5 long, every other warp, all its lanes
            acc = acc * 2654435761u + r;
            acc ^= acc >> 15; acc *= 0x85ebca6bu;
            acc ^= acc >> 13; acc *= 0xc2b2ae35u;
            acc ^= acc >> 16; acc += h;
            acc = acc * 2654435761u + r;
            acc ^= acc >> 15; acc *= 0x85ebca6bu;
            acc ^= acc >> 13; acc *= 0xc2b2ae35u;
            acc ^= acc >> 16;
            acc = acc * 2654435761u + r;
            acc ^= acc >> 15; acc *= 0x85ebca6bu;
        }
    }
    out[i] = acc;
}
