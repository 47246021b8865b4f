# hodyn-fc and hodyn-sim (tools/hil, configured before this directory) fly
# octo_arm too: its plant and reference in hodyn-sim, its controller plugin
# ("feedback_linearization" for octo_arm::Robot::kId) in hodyn-fc. Included at
# the end of core/robots/CMakeLists.txt, where the robot type and its
# controller are built; without them, --robot octo_arm is an unknown robot.
set(_hodyn_hil_tools_dir ${CMAKE_CURRENT_LIST_DIR}/../../tools/hil)
if(TARGET hodyn-fc AND TARGET hodyn::robot_octo_arm_controller)
  target_sources(hodyn-fc PRIVATE ${_hodyn_hil_tools_dir}/fc_octo_arm.cpp)
  target_link_libraries(hodyn-fc PRIVATE hodyn_robot_octo_arm_controller hodyn::robot_octo_arm)
  target_compile_definitions(hodyn-fc PRIVATE HODYN_HIL_OCTO_ARM=1)
endif()
if(TARGET hodyn-sim AND TARGET hodyn::robot_octo_arm)
  target_sources(hodyn-sim PRIVATE ${_hodyn_hil_tools_dir}/sim_octo_arm.cpp)
  target_link_libraries(hodyn-sim PRIVATE hodyn::robot_octo_arm)
  target_compile_definitions(hodyn-sim PRIVATE HODYN_HIL_OCTO_ARM=1)
endif()
