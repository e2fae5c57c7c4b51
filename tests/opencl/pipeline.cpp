// A multi-kernel pipeline that keeps its data on the device: a 1-D diffusion simulation
// steps on one queue, a statistics kernel runs on a second queue after each step (event
// dependencies across queues), each step's statistics are copied into a history buffer
// on the device, and only the history and the final state come back to the host.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

static const char* kSource = R"CLC(
// Integer diffusion with sources: every value stays exact.
__kernel void diffuse(__global const uint* in, __global uint* out, uint n, uint t) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint left = in[(i + n - 1) % n], right = in[(i + 1) % n];
  uint v = (left + 2 * in[i] + right) / 4;
  if (i % 97 == t % 97) v += 1000;
  out[i] = v;
}

// Per work-group sum and maximum of the state.
__kernel void group_stats(__global const uint* state, uint n, __global uint2* partial,
                    __local uint* sums, __local uint* maxima) {
  uint lid = get_local_id(0), i = get_global_id(0);
  uint v = i < n ? state[i] : 0;
  sums[lid] = v;
  maxima[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
      maxima[lid] = max(maxima[lid], maxima[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = (uint2)(sums[0], maxima[0]);
}

// Folds the partial results into one record of the history.
__kernel void fold_history(__global const uint2* partial, uint groups, __global uint2* history,
                   uint t) {
  uint s = 0, m = 0;
  for (uint g = 0; g < groups; ++g) {
    s += partial[g].x;
    m = max(m, partial[g].y);
  }
  history[t] = (uint2)(s, m);
}
)CLC";

int main() {
  try {
    constexpr cl_uint n = 10000, steps = 12, local = 128;
    constexpr cl_uint groups = (n + local - 1) / local;

    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Device device = devices.at(0);
    cl::Context context(device);
    cl::CommandQueue compute(context, device);   // the simulation
    cl::CommandQueue analysis(context, device);  // statistics, on a second queue

    cl::Program program(context, std::string(kSource));
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }
    cl::Kernel step(program, "diffuse"), stats(program, "group_stats"),
        fold(program, "fold_history");

    std::vector<cl_uint> init(n);
    for (cl_uint i = 0; i < n; ++i) init[i] = (i * 7919u) % 5000u;
    cl::Buffer a(context, init.begin(), init.end(), false);
    cl::Buffer b(context, CL_MEM_READ_WRITE, n * sizeof(cl_uint));
    cl::Buffer partial(context, CL_MEM_READ_WRITE, groups * sizeof(cl_uint2));
    cl::Buffer history(context, CL_MEM_READ_WRITE, steps * sizeof(cl_uint2));

    cl::Event last_analysis;
    std::vector<cl::Buffer> state = {a, b};
    for (cl_uint t = 0; t < steps; ++t) {
      const cl::Buffer& in = state[t % 2];
      const cl::Buffer& out = state[(t + 1) % 2];
      step.setArg(0, in);
      step.setArg(1, out);
      step.setArg(2, n);
      step.setArg(3, t);
      // The step overwrites the buffer the previous analysis read: wait for it.
      std::vector<cl::Event> wait;
      if (t > 0) wait.push_back(last_analysis);
      cl::Event stepped;
      compute.enqueueNDRangeKernel(step, cl::NullRange, cl::NDRange(groups * local),
                                   cl::NDRange(local), &wait, &stepped);

      stats.setArg(0, out);
      stats.setArg(1, n);
      stats.setArg(2, partial);
      stats.setArg(3, cl::Local(local * sizeof(cl_uint)));
      stats.setArg(4, cl::Local(local * sizeof(cl_uint)));
      std::vector<cl::Event> after_step = {stepped};
      cl::Event analysed;
      analysis.enqueueNDRangeKernel(stats, cl::NullRange, cl::NDRange(groups * local),
                                    cl::NDRange(local), &after_step, &analysed);
      fold.setArg(0, partial);
      fold.setArg(1, groups);
      fold.setArg(2, history);
      fold.setArg(3, t);
      analysis.enqueueNDRangeKernel(fold, cl::NullRange, cl::NDRange(1), cl::NDRange(1), nullptr,
                                    &last_analysis);
      // The compute queue runs ahead; nothing here waits on the host.
      compute.flush();
      analysis.flush();
    }

    std::vector<cl::Event> done = {last_analysis};
    std::vector<cl_uint2> hist(steps);
    std::vector<cl_uint> final_state(n);
    compute.enqueueReadBuffer(history, CL_TRUE, 0, steps * sizeof(cl_uint2), hist.data(), &done);
    compute.enqueueReadBuffer(state[steps % 2], CL_TRUE, 0, n * sizeof(cl_uint),
                              final_state.data());

    // Host reference.
    std::vector<cl_uint> cur = init, next(n);
    bool ok = true;
    for (cl_uint t = 0; t < steps; ++t) {
      cl_uint sum = 0, mx = 0;
      for (cl_uint i = 0; i < n; ++i) {
        cl_uint v = (cur[(i + n - 1) % n] + 2 * cur[i] + cur[(i + 1) % n]) / 4;
        if (i % 97 == t % 97) v += 1000;
        next[i] = v;
        sum += v;
        mx = std::max(mx, v);
      }
      cur.swap(next);
      bool step_ok = hist[t].s[0] == sum && hist[t].s[1] == mx;
      ok = ok && step_ok;
      std::cout << "step " << t << ": sum=" << hist[t].s[0] << " max=" << hist[t].s[1] << " "
                << (step_ok ? "PASS" : "FAIL") << "\n";
    }
    bool state_ok = final_state == cur;
    std::uint32_t h = 0;
    for (cl_uint v : final_state) h = h * 31u + v;
    std::cout << "final state hash=" << h << " " << (state_ok ? "PASS" : "FAIL") << "\n";
    ok = ok && state_ok;
    std::cout << (ok ? "PASS" : "FAIL") << "\n";
    return ok ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
