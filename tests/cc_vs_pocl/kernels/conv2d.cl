// 2-D convolution with program-scope __constant filters: a 5 x 5 float Gaussian on a
// float image and a 3 x 3 integer sharpen on a uchar image (saturated back to uchar),
// clamp-to-edge addressing. 64 x 48 pixels.
//
// @buffer img f32[3072] random 0 1 seed=111
// @buffer out f32[3072] zeros
// @buffer img8 u8[3072] random 0 255 seed=112
// @buffer out8 u8[3072] zeros
// @run gauss5x5 img out int:64 int:48
// @run sharpen img8 out8 int:64 int:48
// @range global=64,48 local=16,8
// @range global=64,48 local=8,16
// @check out ulp 16 abs 1e-6
// @check out8 exact

__constant float kGauss[5][5] = {
    {1.0f / 273, 4.0f / 273, 7.0f / 273, 4.0f / 273, 1.0f / 273},
    {4.0f / 273, 16.0f / 273, 26.0f / 273, 16.0f / 273, 4.0f / 273},
    {7.0f / 273, 26.0f / 273, 41.0f / 273, 26.0f / 273, 7.0f / 273},
    {4.0f / 273, 16.0f / 273, 26.0f / 273, 16.0f / 273, 4.0f / 273},
    {1.0f / 273, 4.0f / 273, 7.0f / 273, 4.0f / 273, 1.0f / 273}};

__constant int kSharpen[9] = {0, -1, 0, -1, 5, -1, 0, -1, 0};

__kernel void gauss5x5(__global const float* img, __global float* out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
      acc += kGauss[dy + 2][dx + 2] * img[sy * w + sx];
    }
  out[y * w + x] = acc;
}

__kernel void sharpen(__global const uchar* img, __global uchar* out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  int acc = 0;
  for (int k = 0; k < 9; ++k) {
    int sx = clamp(x + k % 3 - 1, 0, w - 1), sy = clamp(y + k / 3 - 1, 0, h - 1);
    acc += kSharpen[k] * img[sy * w + sx];
  }
  out[y * w + x] = convert_uchar_sat(acc);
}
