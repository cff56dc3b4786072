# SPDX-License-Identifier: MIT
# `p2pbench --list` exits 0 and its first column names every kernel, in the
# registry's order, under the header "kernel" (a kernel added later may appear
# anywhere; one missing, renamed or out of order fails, and so does any exit
# status but 0, whatever was printed).
#   cmake -DPROGRAM=p2pbench -P check_list.cmake
set(expected kernel pingpong pingping sendrecv exchange uniband oneway biband multi-pingpong multi-uniband
             memcpy tcp-pingpong tcp-uniband noise persistent-pingpong partitioned-pingpong)
execute_process(COMMAND ${PROGRAM} --list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "p2pbench --list: exit status ${rc} (want 0)\n${out}\n${err}")
endif()
message("${out}")
# the first word of each line, in order
string(REPLACE "\n" ";" lines "${out}")
set(firsts "")
foreach(l IN LISTS lines)
  if(l MATCHES "^([^ \t]+)")
    list(APPEND firsts "${CMAKE_MATCH_1}")
  endif()
endforeach()
# every expected name, each after the one before it
set(at -1)
foreach(name IN LISTS expected)
  list(FIND firsts "${name}" i)
  if(i LESS 0)
    message(FATAL_ERROR "p2pbench --list: no line for '${name}' (first column: ${firsts})")
  endif()
  if(NOT i GREATER at)
    message(FATAL_ERROR "p2pbench --list: '${name}' out of order (first column: ${firsts})")
  endif()
  set(at ${i})
endforeach()
