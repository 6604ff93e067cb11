#===- tests/integration/EmbedInstalled.cmake - find_package(vegasflow) ----===#
#
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DCXX=... -DWORK=... -P this-file
#
# Installs the build tree into a fresh prefix, configures examples/embed as
# an outside project against it (find_package(vegasflow), same compiler),
# builds it, runs it and checks its output: the estimate line, the JSON
# document and the events line.
#
#===------------------------------------------------------------------------===#
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${rc}):\n${out}\n${err}")
  endif()
  set(STEP_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

step(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
foreach(f include/vf/vf.h include/vf/Native.h include/vf/Process.h
          include/vf/vf_c.h
          include/vf/kernels/SamplerABI.h
          lib/cmake/vegasflow/vegasflowConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/embed
  -B ${WORK}/build -G Ninja -DCMAKE_CXX_COMPILER=${CXX}
  -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release)
step(build ${CMAKE_COMMAND} --build ${WORK}/build)
set(ENV{VF_CACHE_DIR} ${WORK}/cache)
step(run ${WORK}/build/embed)
message(STATUS "embed printed:\n${STEP_OUTPUT}")

foreach(pattern
    "lepage = (0\\.99|1\\.00)[0-9]* \\+- "
    "\"integrand\": \"lepage\""
    "1000 unweighted events: <x0> = 0\\.[45]")
  if(NOT STEP_OUTPUT MATCHES "${pattern}")
    message(FATAL_ERROR "embed's output lacks /${pattern}/")
  endif()
endforeach()
