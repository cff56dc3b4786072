# SPDX-License-Identifier: MIT
# Man pages and the Debian package (CPack).
#   man pages: build/man/p2pbench.1(.gz), build/man/p2pbench-report.1(.gz),
#              printed by each program's hidden --help-man from its option
#              table (src/bench/manpage.c, src/report/main.c), so they say
#              what --help says; installed to share/man/man1.
#   package:   cd build && cpack -G DEB  ->  p2pbench_VERSION_ARCH.deb
#              (the programs, man pages, README and docs/ under
#              /usr/share/doc/p2pbench, scripts under /usr/share/p2pbench).
#              Depends: from dpkg-shlibdeps (libopenmpi3, libhwloc15,
#              libcjson1, libc6) plus openmpi-bin for mpirun.
set(P2PB_PACKAGE_MAINTAINER
    "p2pbench maintainers <maintainers@users.noreply.a-seed-accf4a88.example>"
    CACHE STRING "Maintainer field of the Debian package (Name <address>)")

find_program(P2PB_GZIP gzip REQUIRED)
set(P2PB_MAN_DIR "${PROJECT_BINARY_DIR}/man")
file(MAKE_DIRECTORY "${P2PB_MAN_DIR}")
set(_p2pb_man_files)
foreach(prog p2pbench p2pbench-report)
  add_custom_command(
    OUTPUT "${P2PB_MAN_DIR}/${prog}.1" "${P2PB_MAN_DIR}/${prog}.1.gz"
    COMMAND "${CMAKE_COMMAND}" -DPROG=$<TARGET_FILE:${prog}> -DOUT=${P2PB_MAN_DIR}/${prog}.1
            -P "${PROJECT_SOURCE_DIR}/cmake/gen_man.cmake"
    DEPENDS ${prog} "${PROJECT_SOURCE_DIR}/cmake/gen_man.cmake"
    COMMENT "Man page ${prog}.1 from ${prog} --help-man" VERBATIM)
  list(APPEND _p2pb_man_files "${P2PB_MAN_DIR}/${prog}.1.gz")
endforeach()

# Debian wants /usr/share/doc/PACKAGE/changelog.gz (a native package) and
# copyright (DEP-5).
configure_file("${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in"
               "${PROJECT_BINARY_DIR}/packaging/changelog" @ONLY)
add_custom_command(
  OUTPUT "${PROJECT_BINARY_DIR}/packaging/changelog.gz"
  COMMAND "${P2PB_GZIP}" -9n -f -k "${PROJECT_BINARY_DIR}/packaging/changelog"
  DEPENDS "${PROJECT_BINARY_DIR}/packaging/changelog" VERBATIM)
add_custom_target(p2pb_man ALL DEPENDS ${_p2pb_man_files}
                                       "${PROJECT_BINARY_DIR}/packaging/changelog.gz")

install(FILES ${_p2pb_man_files} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES "${PROJECT_BINARY_DIR}/packaging/changelog.gz"
              "${PROJECT_SOURCE_DIR}/packaging/debian/copyright"
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(PROGRAMS scripts/batch/p2pbench.sbatch scripts/batch/p2pbench.pbs
                 scripts/batch/local-slurm.sh
        DESTINATION ${CMAKE_INSTALL_DATADIR}/p2pbench/scripts/batch)
# local-slurm.sh start --nodes N builds its nodes with the testbed.
install(PROGRAMS scripts/testbed/testbed.sh scripts/testbed/agent.sh
        DESTINATION ${CMAKE_INSTALL_DATADIR}/p2pbench/scripts/testbed)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME p2pbench)
set(CPACK_PACKAGE_VENDOR "The p2pbench authors")
set(CPACK_PACKAGE_CONTACT "${P2PB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "MPI point-to-point benchmarks with statistics and host context")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION # the long part; CPack puts the summary first
    "p2pbench measures PingPong, PingPing, Sendrecv, Exchange (the Pallas/Intel
MPI Benchmarks definitions), bandwidth, multi-pair and memcpy kernels and
reports per message size the median with its 95% prediction interval, p99,
minimum and sample count. Each run writes a JSON Lines results file with the
host context (MPI library, binding, topology, hypervisor signals).
p2pbench-report shows, compares (with a verdict per row), imports IMB/PMB/OSU
logs, plots and renders (a self-contained html report) results files, and
names the slow nodes and links of a link survey.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # p2pbench_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
