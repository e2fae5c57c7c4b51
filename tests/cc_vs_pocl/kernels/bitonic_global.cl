// Bitonic sort of 1024 floats in global memory, one launch per step: the 55 steps are
// one run repeated, the kernel derives stage and distance from the repetition index.
//
// @buffer keys f32[1024] random -1000 1000 seed=131
// @run bitonic_step keys uint:$i repeat=55
// @range global=512 local=64
// @range global=512 local=256
// @check keys exact

__kernel void bitonic_step(__global float* keys, uint pass) {
  // Stage s (k = 2^(s+1)) has s + 1 steps with j = k/2, k/4, ..., 1.
  uint stage = 0;
  while (pass > stage) {
    pass -= stage + 1;
    ++stage;
  }
  uint k = 2u << stage;
  uint j = k >> (pass + 1);
  uint t = get_global_id(0);
  uint i = 2 * t - (t & (j - 1));
  uint partner = i + j;
  bool ascending = (i & k) == 0;
  float a = keys[i], b = keys[partner];
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
  }
}
