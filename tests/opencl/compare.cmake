# ctest driver of tests/opencl: runs PROGRAM with the ICD loader restricted to pocl, then to
# Ventus; fails unless both exit with 0 and print the same stdout (a diff on mismatch).
#   cmake -DPROGRAM=... -DPOCL_ICD=... -DVENTUS_ICD=... -DOUT_DIR=... [-DPOCL_CACHE_DIR=...]
#         -P compare.cmake
foreach(var PROGRAM POCL_ICD VENTUS_ICD OUT_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "compare.cmake: -D${var}=... is required")
  endif()
endforeach()
get_filename_component(name ${PROGRAM} NAME)
file(MAKE_DIRECTORY ${OUT_DIR})

set(env_args --unset=OCL_ICD_FILENAMES)
if(DEFINED POCL_CACHE_DIR AND NOT POCL_CACHE_DIR STREQUAL "")
  file(MAKE_DIRECTORY ${POCL_CACHE_DIR})
  list(APPEND env_args POCL_CACHE_DIR=${POCL_CACHE_DIR})
endif()

# Runs the program on one platform; sets <platform>_out (stdout) and writes it to a file.
function(run_on platform icd)
  if(NOT EXISTS ${icd})
    message(FATAL_ERROR "${platform}: ICD file ${icd} does not exist")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env_args} OCL_ICD_VENDORS=${icd} ${PROGRAM}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(WRITE ${OUT_DIR}/${name}.${platform}.out "${out}")
  file(WRITE ${OUT_DIR}/${name}.${platform}.err "${err}")
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${name} on ${platform} (OCL_ICD_VENDORS=${icd}) exited with ${rc}\n"
                        "--- stdout:\n${out}\n--- stderr:\n${err}")
  endif()
  set(${platform}_out "${out}" PARENT_SCOPE)
endfunction()

run_on(pocl ${POCL_ICD})
run_on(ventus ${VENTUS_ICD})

if(NOT pocl_out STREQUAL ventus_out)
  find_program(DIFF diff)
  set(diff_text "")
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u ${OUT_DIR}/${name}.pocl.out ${OUT_DIR}/${name}.ventus.out
                    OUTPUT_VARIABLE diff_text)
  endif()
  message(FATAL_ERROR "${name}: stdout differs between pocl and Ventus "
                      "(${OUT_DIR}/${name}.{pocl,ventus}.out)\n${diff_text}")
endif()
message(STATUS "${name}: pocl and Ventus agree\n${ventus_out}")
