// The C++ bindings' conveniences: buffers built from host iterators (CL_MEM_COPY_HOST_PTR
// under the hood), cl::KernelFunctor with cl::EnqueueArgs (global size only: the runtime
// picks the work-group size), cl::copy back to a std::vector, a program made of several
// source strings, build options (-D, -cl-std=CL1.2), and kernel and program queries.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

int main() {
  try {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl::Platform platform = platforms.at(0);
    std::vector<cl::Device> devices;
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Device device = devices.at(0);
    std::string version = device.getInfo<CL_DEVICE_VERSION>();
    std::string c_version = device.getInfo<CL_DEVICE_OPENCL_C_VERSION>();
    std::cout << "device version starts with \"OpenCL \": "
              << (version.rfind("OpenCL ", 0) == 0 ? "yes" : "no") << "\n";
    std::cout << "OpenCL C version starts with \"OpenCL C 1.2\": "
              << (c_version.rfind("OpenCL C 1.2", 0) == 0 ? "yes" : "no") << "\n";
    std::cout << "device available: " << (device.getInfo<CL_DEVICE_AVAILABLE>() ? "yes" : "no")
              << ", compiler available: "
              << (device.getInfo<CL_DEVICE_COMPILER_AVAILABLE>() ? "yes" : "no") << "\n";

    cl::Context context(device);
    cl::CommandQueue queue(context, device);

    // Two source strings: helpers, then kernels.
    cl::Program::Sources sources = {
        "inline float scaled(float a, float x) { return a * x * SCALE; }\n",
        "__kernel void saxpy(float a, __global const float* x, __global float* y) {\n"
        "  size_t i = get_global_id(0);\n"
        "  y[i] = scaled(a, x[i]) + y[i];\n"
        "}\n"
        "__kernel void iota(__global int* out, int start) {\n"
        "  out[get_global_id(0)] = start + (int)get_global_id(0);\n"
        "}\n"};
    cl::Program program(context, sources);
    try {
      program.build({device}, "-cl-std=CL1.2 -DSCALE=2.0f");
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }
    std::cout << "program kernels: " << program.getInfo<CL_PROGRAM_NUM_KERNELS>() << "\n";

    constexpr int n = 12000;  // 2^5 * 3 * 5^3: the runtime's choice must divide it
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = (float)(i % 256) * 0.5f;
      y[i] = (float)(i % 10);
    }
    cl::Buffer dx(context, x.begin(), x.end(), true);
    cl::Buffer dy(context, y.begin(), y.end(), false);

    auto saxpy = cl::KernelFunctor<float, cl::Buffer, cl::Buffer>(program, "saxpy");
    const float a = 1.5f;
    saxpy(cl::EnqueueArgs(queue, cl::NDRange(n)), a, dx, dy);
    cl::copy(queue, dy, y.begin(), y.end());
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      float expect = a * ((float)(i % 256) * 0.5f) * 2.0f + (float)(i % 10);
      bad += y[i] != expect;
      sum += y[i];
    }
    std::cout << "saxpy: y[1]=" << y[1] << " y[300]=" << y[300] << " sum=" << sum << " "
              << (bad ? "FAIL" : "PASS") << "\n";

    // Second functor with an explicit work-group size and a global offset.
    cl::Buffer dout(context, CL_MEM_READ_WRITE, n * sizeof(cl_int));
    queue.enqueueFillBuffer(dout, (cl_int)-1, 0, n * sizeof(cl_int));
    auto iota = cl::KernelFunctor<cl::Buffer, cl_int>(program, "iota");
    iota(cl::EnqueueArgs(queue, cl::NDRange(100), cl::NDRange(n - 200), cl::NDRange(40)), dout, 5);
    std::vector<cl_int> out(n);
    cl::copy(queue, dout, out.begin(), out.end());
    int bad2 = 0;
    for (int i = 0; i < n; ++i) {
      cl_int expect = i >= 100 && i < n - 100 ? 5 + i : -1;
      bad2 += out[i] != expect;
    }
    std::cout << "iota with offset 100: out[99]=" << out[99] << " out[100]=" << out[100] << " out["
              << n - 101 << "]=" << out[n - 101] << " out[" << n - 100 << "]=" << out[n - 100]
              << " " << (bad2 ? "FAIL" : "PASS") << "\n";

    cl::Kernel k = saxpy.getKernel();
    std::cout << "saxpy kernel: name=" << k.getInfo<CL_KERNEL_FUNCTION_NAME>()
              << " args=" << k.getInfo<CL_KERNEL_NUM_ARGS>() << "\n";
    bool ok = bad == 0 && bad2 == 0;
    std::cout << (ok ? "PASS" : "FAIL") << "\n";
    return ok ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
