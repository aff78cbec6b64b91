# What `cmake --install BUILD --prefix P` puts under P (and the Debian package
# under /usr, cmake/package.cmake):
#   bin/airscope
#   include/airscope/core/...                the plugin API: plugin_api.h and the headers it reaches
#   share/cmake/airscope/                    the CMake package (find_package(airscope)): airscope::plugin_api
#   share/doc/airscope/examples/seed_multistream/   the example plugin's source (it builds out of tree)
#   share/man/man1/airscope.1.gz             airscope(1), generated (repl/manual_page.h)
#   share/bash-completion/completions/airscope      the completion of airscope's options (repl/bash_completion.h)
# The report's templates and assets are embedded in the binary (viz/CMakeLists.txt): nothing to install.
# tests/install/check_install.sh installs into a temporary prefix and uses all of it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS airscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

foreach(header ${AIRSCOPE_PLUGIN_API_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/airscope/${dir})
endforeach()

# The package is headers and CMake files only, the same on every architecture: share/, not lib/.
set(AIRSCOPE_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/airscope)
install(TARGETS airscope_plugin_api EXPORT airscopeTargets)
install(EXPORT airscopeTargets NAMESPACE airscope:: DESTINATION ${AIRSCOPE_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/airscopeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/airscopeConfig.cmake INSTALL_DESTINATION ${AIRSCOPE_CMAKE_DIR})
# A plugin is tied to the exact airscope it was built against (core/pass/plugin_api.h's ABI caveats).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/airscopeConfigVersion.cmake COMPATIBILITY ExactVersion
                                 ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/airscopeConfig.cmake ${PROJECT_BINARY_DIR}/airscopeConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/airscopePlugin.cmake
        DESTINATION ${AIRSCOPE_CMAKE_DIR})

install(FILES ${PROJECT_SOURCE_DIR}/plugins/seed_multistream/CMakeLists.txt
              ${PROJECT_SOURCE_DIR}/plugins/seed_multistream/plugin.cc
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/seed_multistream)

install(FILES ${AIRSCOPE_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# bash-completion looks in DATADIR/bash-completion/completions of every XDG data dir
# (/usr/share, /usr/local/share) for a file named after the command.
install(FILES ${AIRSCOPE_BASH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME airscope)
