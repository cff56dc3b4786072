# SPDX-License-Identifier: MIT
# p2pbench-report: reads results files and text logs; no MPI.
# Links only p2pb_common (statistics, results file, reporters) and its own files.
add_library(p2pb_report_lib STATIC
  src/compare_stats.c src/report_load.c src/report_compare.c src/report_plot.c
  src/import_log.c)
target_compile_options(p2pb_report_lib PRIVATE ${P2PB_WARN})
target_link_libraries(p2pb_report_lib PUBLIC p2pb_common)

add_executable(p2pbench-report src/report_main.c)
target_compile_options(p2pbench-report PRIVATE ${P2PB_WARN})
target_link_libraries(p2pbench-report PRIVATE p2pb_report_lib)

install(TARGETS p2pbench-report RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS scripts/campaign.sh DESTINATION ${CMAKE_INSTALL_DATADIR}/p2pbench/scripts)
