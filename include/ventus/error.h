// The project's exception type for bad input: a message that says where and why.
#pragma once

#include <stdexcept>
#include <string>

namespace ventus {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ventus
