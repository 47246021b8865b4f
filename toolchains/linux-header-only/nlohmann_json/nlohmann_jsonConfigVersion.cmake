# Version of the host's header-only nlohmann_json (see nlohmann_jsonConfig.cmake).
if(EXISTS /usr/share/cmake/nlohmann_json/nlohmann_jsonConfigVersion.cmake)
  include(/usr/share/cmake/nlohmann_json/nlohmann_jsonConfigVersion.cmake)
else()
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
