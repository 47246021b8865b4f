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

/// `text` as a JSON string literal: quoted, every ASCII control character
/// escaped (U+0000..U+001F as nlohmann does, DEL as \u007f), bytes that are
/// not UTF-8 replaced by U+FFFD. For names and values from a file in
/// one-line error messages.
std::string json_quoted(const std::string& text);

/// A key in a message or a path: as it is, or json_quoted() when it holds an
/// ASCII control character (a "\n" in a key must not break the line).
std::string key_text(const std::string& key);

}  // namespace robot_description
}  // namespace hodyn
