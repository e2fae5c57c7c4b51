# The builtin library (src/compiler/lib) on pocl: accuracy of the float math and the
# integer, relational, conversion and memory families against host references. Needs an
# OpenCL ICD loader (ocl-icd-opencl-dev); the tests skip when no pocl platform is found.
find_package(OpenCL QUIET)
if(NOT OpenCL_FOUND)
  message(STATUS "tests/compiler: no OpenCL (ocl-icd-opencl-dev), library tests disabled")
  return()
endif()
add_executable(test_compiler_library library_accuracy_test.cpp)
target_link_libraries(test_compiler_library PRIVATE OpenCL::OpenCL GTest::gtest_main)
target_compile_definitions(test_compiler_library PRIVATE
                           VENTUS_COMPILER_LIB_DIR="${CMAKE_SOURCE_DIR}/src/compiler/lib")
gtest_discover_tests(test_compiler_library DISCOVERY_TIMEOUT 30 PROPERTIES TIMEOUT 300)
add_executable(test_compiler_library_families library_families_test.cpp)
target_link_libraries(test_compiler_library_families PRIVATE OpenCL::OpenCL GTest::gtest_main)
target_compile_definitions(test_compiler_library_families PRIVATE
                           VENTUS_COMPILER_LIB_DIR="${CMAKE_SOURCE_DIR}/src/compiler/lib")
gtest_discover_tests(test_compiler_library_families DISCOVERY_TIMEOUT 30 PROPERTIES TIMEOUT 300)

# The library through `ventus cc` on the simulated device, bit-exact against pocl.
if(TARGET ventus_compiler AND TARGET ventus_driver)
  add_executable(test_compiler_library_device library_device_test.cpp)
  target_link_libraries(test_compiler_library_device PRIVATE ventus_compiler ventus_driver
                        OpenCL::OpenCL GTest::gtest_main)
  target_compile_definitions(test_compiler_library_device PRIVATE
                             VENTUS_COMPILER_LIB_DIR="${CMAKE_SOURCE_DIR}/src/compiler/lib")
  gtest_discover_tests(test_compiler_library_device DISCOVERY_TIMEOUT 30 PROPERTIES TIMEOUT 300)
endif()
