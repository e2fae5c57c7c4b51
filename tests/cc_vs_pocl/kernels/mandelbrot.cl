// Mandelbrot iteration counts over 64 x 48 pixels, up to 256 iterations: a loop whose
// exit diverges per work-item. FP_CONTRACT OFF and a correctly rounded division make
// every operation a rounded IEEE operation on both sides, so the counts match exactly.
//
// @buffer counts i32[3072] zeros
// @options -cl-fp32-correctly-rounded-divide-sqrt
// @run mandelbrot counts int:64 int:48 int:256
// @range global=64,48 local=16,4
// @range global=64,48 local=32,2
// @check counts exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void mandelbrot(__global int* counts, int w, int h, int max_iter) {
  int px = get_global_id(0), py = get_global_id(1);
  float cx = -2.2f + 3.0f * px / w;
  float cy = -1.2f + 2.4f * py / h;
  float x = 0.0f, y = 0.0f;
  int it = 0;
  while (it < max_iter) {
    float x2 = x * x, y2 = y * y;
    if (x2 + y2 > 4.0f) break;
    y = 2.0f * x * y + cy;
    x = x2 - y2 + cx;
    ++it;
  }
  counts[py * w + px] = it;
}
