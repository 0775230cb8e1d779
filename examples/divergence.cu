// divergence.cu - the bundled example of warpsim: one kernel with the branch shapes whose
// translation warpc explains and whose cost warpsim measures.
//
//   short if      (a few instructions: predicated at the default threshold)
//   ternary       (selp in PTX: branch-free before warpc sees it)
//   if / else     (larger sides: SSY + divergent branch, taken side first)
//   data-dependent loop with an early break (PBK/BRK or SSY at the loop exit)
//   early return of some threads (EXIT inside divergent code)
//
// Regenerate examples/divergence.ptx with `make fixtures` where nvcc exists.

extern "C" __global__ void divergence(const int *in, int *out, int *odd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;                          // early exit for the tail threads
    int x = in[i];
    int acc = x;

    if (x & 1) {                         // short if with a store: predicated
        odd[i] = x + 3;
        acc += 3;
    }
    int sel = (x > 500) ? x - 500 : x;   // a ternary: already branch-free (selp) in PTX

    if ((x >> 1) & 1) {                  // if/else with real work on both sides
        acc = acc * 7 + (x ^ 0x55);
        acc ^= acc >> 3;
        acc += i * 13 + sel;
        acc = acc * 5 - x;
        acc ^= acc << 2;
        acc += 17;
        acc = acc * 3 + 1;
        acc ^= acc >> 5;
    } else {
        acc = acc * 11 - (x | 0x21);
        acc ^= acc << 4;
        acc -= i * 9;
        acc = acc * 13 + x;
        acc ^= acc >> 1;
        acc -= 23;
        acc = acc * 9 + 2;
        acc ^= acc << 3;
    }

    for (int k = 0; k < (x & 15); k++) { // data-dependent trip count
        acc = acc * 31 + k;
        if (acc == 12345)                // rare early break
            break;
    }
    out[i] = acc;
}
