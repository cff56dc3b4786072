# SPDX-License-Identifier: MIT
# cmake -DPROG=... -DOUT=... -P gen_man.cmake: OUT (roff) from PROG --help-man
# (the page printed from the program's option table; no MPI), then OUT.gz
# (gzip -9n: no name, no time stamp, so the package is reproducible).
execute_process(COMMAND "${PROG}" --help-man OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROG} --help-man failed (${rc})")
endif()
execute_process(COMMAND gzip -9n -c "${OUT}" OUTPUT_FILE "${OUT}.gz" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${OUT} failed (${rc})")
endif()
