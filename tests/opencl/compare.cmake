# ctest driver of tests/opencl: runs PROGRAM with the ICD loader restricted to pocl, then to
# Ventus; fails unless both exit with 0 and print the same stdout (a diff on mismatch).
#   cmake -DPROGRAM=... -DPOCL_ICD=... -DVENTUS_ICD=... -DOUT_DIR=... [-DPOCL_CACHE_DIR=...]
#         [-DVENTUS_ENV=NAME=VALUE] -P compare.cmake
# VENTUS_ENV is set for the Ventus run only (VENTUS_TIMING=verilog-release: the same
# program on the cycle model must print the same).
# The outputs stay in OUT_DIR as <program>.{pocl,ventus}.{out,err}.
foreach(var PROGRAM POCL_ICD VENTUS_ICD OUT_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "compare.cmake: -D${var}=... is required")
  endif()
endforeach()
get_filename_component(name ${PROGRAM} NAME)
file(MAKE_DIRECTORY ${OUT_DIR})

# OCL_ICD_FILENAMES would add vendors to the one OCL_ICD_VENDORS names.
set(env_args --unset=OCL_ICD_FILENAMES)
if(DEFINED POCL_CACHE_DIR AND NOT POCL_CACHE_DIR STREQUAL "")
  file(MAKE_DIRECTORY ${POCL_CACHE_DIR})
  list(APPEND env_args POCL_CACHE_DIR=${POCL_CACHE_DIR})
endif()

# Runs the program on one platform: <platform>_rc, and its stdout/stderr in files.
function(run_on platform icd)
  set(out_file ${OUT_DIR}/${name}.${platform}.out)
  set(err_file ${OUT_DIR}/${name}.${platform}.err)
  if(NOT EXISTS ${icd})
    file(WRITE ${out_file} "")
    file(WRITE ${err_file} "ICD file ${icd} does not exist\n")
    set(${platform}_rc "no ICD file" PARENT_SCOPE)
    return()
  endif()
  set(platform_env "")
  if(platform STREQUAL "ventus" AND DEFINED VENTUS_ENV AND NOT VENTUS_ENV STREQUAL "")
    set(platform_env ${VENTUS_ENV})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env_args} ${platform_env}
                          OCL_ICD_VENDORS=${icd} ${PROGRAM}
                  OUTPUT_FILE ${out_file} ERROR_FILE ${err_file} RESULT_VARIABLE rc)
  set(${platform}_rc "${rc}" PARENT_SCOPE)
endfunction()

# Shows a file on this script's stdout (ctest's log), between header lines.
function(show title file)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "----- ${title} (${file})")
  execute_process(COMMAND ${CMAKE_COMMAND} -E cat ${file})
endfunction()

run_on(pocl ${POCL_ICD})
run_on(ventus ${VENTUS_ICD})

set(failed "")
foreach(platform pocl ventus)
  if(NOT "${${platform}_rc}" STREQUAL "0")
    show("${platform} stdout" ${OUT_DIR}/${name}.${platform}.out)
    show("${platform} stderr" ${OUT_DIR}/${name}.${platform}.err)
    list(APPEND failed "${platform} (exit status: ${${platform}_rc})")
  endif()
endforeach()
if(failed)
  list(JOIN failed ", " failed)
  message(FATAL_ERROR "${name} failed on ${failed}")
endif()

file(READ ${OUT_DIR}/${name}.pocl.out pocl_out)
file(READ ${OUT_DIR}/${name}.ventus.out ventus_out)
if(NOT pocl_out STREQUAL ventus_out)
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u --label pocl --label ventus ${OUT_DIR}/${name}.pocl.out
                            ${OUT_DIR}/${name}.ventus.out)
  else()
    show("pocl stdout" ${OUT_DIR}/${name}.pocl.out)
    show("ventus stdout" ${OUT_DIR}/${name}.ventus.out)
  endif()
  message(FATAL_ERROR "${name}: stdout differs between pocl and Ventus")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${name}: pocl and Ventus agree")
execute_process(COMMAND ${CMAKE_COMMAND} -E cat ${OUT_DIR}/${name}.ventus.out)
