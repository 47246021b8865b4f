// JSON parsing whose errors say where in the document they are: a syntax
// error, a number that overflows double (JSON has no NaN or Inf) or a
// duplicate key is reported with its JSON path, e.g. "rotors[2].axis[1]".
// Used by the robot-description files and by hodyn-eval's state reader (a
// duplicated key is an error there too, not "the last one wins").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hodyn {
namespace robot_description {

struct JsonParse {
  nlohmann::json value;
  std::string error;  ///< one line; "" on success
};

JsonParse parse_json_with_paths(const std::string& text);

}  // namespace robot_description
}  // namespace hodyn
