// clGet*Info's answer protocol: the value's size through param_value_size_ret, the value
// itself when param_value is given and large enough, CL_INVALID_VALUE when it is too small.
#pragma once

#include <cstring>
#include <string_view>
#include <vector>

#include "cl_headers.h"

namespace ventus::cl {

inline cl_int info_bytes(size_t capacity, void* value, size_t* size_ret, const void* data,
                         size_t size) {
  if (value != nullptr) {
    if (capacity < size) return CL_INVALID_VALUE;
    if (size != 0) std::memcpy(value, data, size);
  }
  if (size_ret != nullptr) *size_ret = size;
  return CL_SUCCESS;
}

template <typename T>
cl_int info_value(size_t capacity, void* value, size_t* size_ret, const T& v) {
  return info_bytes(capacity, value, size_ret, &v, sizeof v);
}

inline cl_int info_string(size_t capacity, void* value, size_t* size_ret, std::string_view s) {
  std::vector<char> text(s.begin(), s.end());
  text.push_back('\0');
  return info_bytes(capacity, value, size_ret, text.data(), text.size());
}

template <typename T>
cl_int info_array(size_t capacity, void* value, size_t* size_ret, const std::vector<T>& v) {
  return info_bytes(capacity, value, size_ret, v.data(), v.size() * sizeof(T));
}

// Stores an error code where the application asked for one (errcode_ret may be NULL).
inline void set_error(cl_int* errcode_ret, cl_int code) {
  if (errcode_ret != nullptr) *errcode_ret = code;
}

}  // namespace ventus::cl
