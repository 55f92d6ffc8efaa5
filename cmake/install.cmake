# cmake/install.cmake — install rules: `cmake --install BUILD --prefix P` puts
#   P/bin/                    mxcert, mxcert-opt, mxcert-replay (and its device plugins)
#   P/lib/                    libmxcert_models.a, libmxcert_certs.a
#   P/lib/mxcert/             libMxcertPassPlugin.so (mlir-opt-22 --load-pass-plugin; mlir_pass/)
#   P/include/mxcert/         models/*.h, certs/*.h (include as "models/guard.h", "certs/certificate.h")
#   P/lib/cmake/mxcert/       mxcertConfig.cmake: find_package(mxcert) -> mxcert::models, mxcert::certs
#   P/lib/pkgconfig/mxcert.pc pkg-config --cflags --libs mxcert
#   P/share/mxcert/tables/    the committed certified tables (mxcert-opt's and the plugin's default tables-dir)
#   P/share/mxcert/grown/     the committed grown set and its index.json (searched after the tables by default)
#   P/share/mxcert/nvfp4/     the committed NVFP4 set and its index.json (searched after the grown set)
#   P/share/mxcert/certificate.schema.json
#   P/share/doc/mxcert/       README.md and docs/ (all of it: *.md and any images)
#   P/share/bash-completion/completions/mxcert
#   P/lib/python3/dist-packages/mxcert/  the Python package (installed by python/; docs/python.md)
# The exported libraries are the solver-free ones (reading certificates, looking up guards,
# evaluating placements): a consumer needs no solver. The binaries are installed by their
# own directories (src/, mlir_pass/, gpu_replay/).
include(CMakePackageConfigHelpers)

set(MXCERT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mxcert")

install(TARGETS mxcert_models mxcert_certs EXPORT mxcertTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mxcert)
install(DIRECTORY models/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mxcert/models FILES_MATCHING PATTERN "*.h")
install(DIRECTORY certs/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mxcert/certs FILES_MATCHING PATTERN "*.h"
        PATTERN "tables" EXCLUDE)
install(EXPORT mxcertTargets NAMESPACE mxcert:: DESTINATION ${MXCERT_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/mxcertConfig.cmake.in ${PROJECT_BINARY_DIR}/mxcertConfig.cmake
  INSTALL_DESTINATION ${MXCERT_INSTALL_CMAKEDIR}
  PATH_VARS MXCERT_INSTALL_TABLESDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mxcertConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mxcertConfig.cmake ${PROJECT_BINARY_DIR}/mxcertConfigVersion.cmake
        DESTINATION ${MXCERT_INSTALL_CMAKEDIR})

configure_file(cmake/mxcert.pc.in ${PROJECT_BINARY_DIR}/mxcert.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mxcert.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CONFIGURE_DEPENDS: a table added to certs/tables/ is installed without re-running cmake by hand.
file(GLOB _mxcert_tables CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/certs/tables/*.json)
install(FILES ${_mxcert_tables} ${PROJECT_SOURCE_DIR}/certs/tables/README.md DESTINATION ${MXCERT_INSTALL_TABLESDIR})
# The grown set with its index (file names in the index are relative to it).
file(GLOB _mxcert_grown CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/certs/grown/*.json)
install(FILES ${_mxcert_grown} DESTINATION ${MXCERT_INSTALL_GROWNDIR})
file(GLOB _mxcert_nvfp4 CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/certs/nvfp4/*.json)
install(FILES ${_mxcert_nvfp4} DESTINATION ${MXCERT_INSTALL_NVFP4DIR})
install(FILES certs/certificate.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/mxcert)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES scripts/completion/mxcert.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME mxcert)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
