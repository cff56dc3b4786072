# SPDX-License-Identifier: MIT
# `p2pbench --list` exits 0 and its first column names every kernel, in the
# registry's order, under the header "kernel" (a kernel added later may appear
# anywhere; one missing, renamed or out of order fails, and so does any exit
# status but 0, whatever was printed). Each kernel's line then has its table
# name, the ranks it takes (as the definition says: 2, >=2 or >=1), whether it
# is a default kernel, and a definition of at least three words.
#   cmake -DPROGRAM=p2pbench -P check_list.cmake
# name:ranks:default, in the registry's order
set(kernels pingpong:2:yes pingping:2:yes sendrecv:>=2:yes exchange:>=2:yes uniband:2:no
            oneway:2:no biband:2:no multi-pingpong:>=2:no multi-uniband:>=2:no memcpy:>=1:no
            tcp-pingpong:2:no tcp-uniband:2:no noise:>=1:no msgrate:>=2:no put_latency:2:no
            get_latency:2:no put_bw:2:no get_bw:2:no put_bibw:2:no get_bibw:2:no overlap:2:no
            persistent-pingpong:2:no partitioned-pingpong:2:no)
set(expected kernel)
foreach(k IN LISTS kernels)
  string(REPLACE ":" ";" f "${k}")
  list(GET f 0 name)
  list(APPEND expected "${name}")
endforeach()
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
# each kernel's columns
foreach(k IN LISTS kernels)
  string(REPLACE ":" ";" f "${k}")
  list(GET f 0 name)
  list(GET f 1 ranks)
  list(GET f 2 dflt)
  set(found 0)
  foreach(l IN LISTS lines)
    if(l MATCHES "^${name}[ ]+[A-Za-z-]+[ ]+([^ ]+)[ ]+([a-z]+)[ ]+([^ ]+ [^ ]+ [^ ].*)$")
      set(found 1)
      if(NOT CMAKE_MATCH_1 STREQUAL ranks OR NOT CMAKE_MATCH_2 STREQUAL dflt)
        message(FATAL_ERROR "p2pbench --list: ${name}: ranks '${CMAKE_MATCH_1}', default "
                            "'${CMAKE_MATCH_2}' (want ${ranks}, ${dflt})\n${l}")
      endif()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "p2pbench --list: no full line (name, table, ranks, default, "
                        "definition) for ${name}")
  endif()
endforeach()
