// Conway's Game of Life on a 96x64 torus for 60 generations: a 2-D NDRange, each 16x8
// work-group copies its tile plus a one-cell halo into local memory (the halo loaded by
// the edge work-items), then counts neighbours from local memory. Two buffers ping-pong
// on the device; the host prints the population every 10 generations and a picture of
// the final board, and compares with its own simulation.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

static const char* kSource = R"CLC(
#define TX 16
#define TY 8
__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void life(__global const uchar* in, __global uchar* out) {
  __local uchar tile[TY + 2][TX + 2];
  int w = get_global_size(0), h = get_global_size(1);
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1;
  #define CELL(X, Y) in[(((Y) + h) % h) * w + (((X) + w) % w)]
  tile[ly][lx] = CELL(x, y);
  if (lx == 1) tile[ly][0] = CELL(x - 1, y);
  if (lx == TX) tile[ly][TX + 1] = CELL(x + 1, y);
  if (ly == 1) tile[0][lx] = CELL(x, y - 1);
  if (ly == TY) tile[TY + 1][lx] = CELL(x, y + 1);
  if (lx == 1 && ly == 1) tile[0][0] = CELL(x - 1, y - 1);
  if (lx == TX && ly == 1) tile[0][TX + 1] = CELL(x + 1, y - 1);
  if (lx == 1 && ly == TY) tile[TY + 1][0] = CELL(x - 1, y + 1);
  if (lx == TX && ly == TY) tile[TY + 1][TX + 1] = CELL(x + 1, y + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = tile[ly - 1][lx - 1] + tile[ly - 1][lx] + tile[ly - 1][lx + 1]
        + tile[ly][lx - 1] + tile[ly][lx + 1]
        + tile[ly + 1][lx - 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 1];
  out[y * w + x] = (n == 3 || (n == 2 && tile[ly][lx])) ? 1 : 0;
}
)CLC";

int main() {
  try {
    constexpr int w = 96, h = 64, generations = 60;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_DEFAULT, &devices);
    cl::Device device = devices.at(0);
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    cl::Program program(context, std::string(kSource));
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }
    cl::Kernel life(program, "life");
    auto reqd = life.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(device);
    std::cout << "CL_KERNEL_COMPILE_WORK_GROUP_SIZE: " << reqd[0] << "x" << reqd[1] << "x"
              << reqd[2] << "\n";

    // Random soup plus a glider and a blinker.
    std::vector<cl_uchar> board(w * h, 0);
    std::uint32_t s = 4242;
    for (int y = 8; y < 40; ++y)
      for (int x = 40; x < 90; ++x) {
        s = s * 1664525u + 1013904223u;
        board[y * w + x] = (s >> 28) < 5;
      }
    const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    for (auto& g : glider) board[(g[1] + 2) * w + g[0] + 2] = 1;
    for (int i = 0; i < 3; ++i) board[50 * w + 10 + i] = 1;

    cl::Buffer a(context, board.begin(), board.end(), false);
    cl::Buffer b(context, CL_MEM_READ_WRITE, board.size());
    std::vector<cl_uchar> ref = board, next(w * h);
    bool ok = true;
    for (int g = 1; g <= generations; ++g) {
      life.setArg(0, g % 2 ? a : b);
      life.setArg(1, g % 2 ? b : a);
      queue.enqueueNDRangeKernel(life, cl::NullRange, cl::NDRange(w, h), cl::NDRange(16, 8));
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          int n = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              if (dx || dy) n += ref[((y + dy + h) % h) * w + (x + dx + w) % w];
          next[y * w + x] = n == 3 || (n == 2 && ref[y * w + x]);
        }
      ref.swap(next);
      if (g % 10 == 0) {
        queue.enqueueReadBuffer(g % 2 ? b : a, CL_TRUE, 0, board.size(), board.data());
        int population = 0;
        for (cl_uchar c : board) population += c;
        bool same = board == ref;
        ok = ok && same;
        std::cout << "generation " << g << ": population " << population << " "
                  << (same ? "PASS" : "FAIL") << "\n";
      }
    }
    for (int y = 0; y < h; y += 4) {
      std::string line;
      for (int x = 0; x < w; x += 2) {
        int n = 0;
        for (int dy = 0; dy < 4; ++dy) n += board[(y + dy) * w + x] + board[(y + dy) * w + x + 1];
        line += " .:*#"[n > 4 ? 4 : n];
      }
      std::cout << "|" << line << "|\n";
    }
    std::cout << (ok ? "PASS" : "FAIL") << "\n";
    return ok ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
