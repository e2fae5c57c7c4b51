#include "backend.h"

#include "ventus/error.h"

namespace ventus::cc::backend {

std::string generate_assembly(llvm::Module&, int) {
  throw Error("the Ventus back end is not built yet");
}

}  // namespace ventus::cc::backend
