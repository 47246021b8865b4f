# Fails when the linked image contains the C or C++ heap (cmake -P, run after
# the link of consumer_firmware): -DNM=<arm-none-eabi-nm> -DELF=<image>.
execute_process(COMMAND "${NM}" "${ELF}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "no_heap: ${NM} ${ELF} failed (${rc})")
endif()
# malloc / free and newlib's reentrant forms, sbrk, operator new / delete.
string(REGEX MATCHALL "[ \t](malloc|_malloc_r|calloc|realloc|free|_free_r|_sbrk|_sbrk_r|_Znw[jm]|_Zna[jm]|_ZdlPv|_ZdaPv)\n"
  heap "${symbols}")
if(heap)
  string(REGEX REPLACE "[ \t\n;]+" " " heap "${heap}")
  message(FATAL_ERROR "no_heap: ${ELF} links the heap:${heap}")
endif()
message(STATUS "no_heap: ${ELF} has no malloc/free/sbrk/operator new")
