// SAX handler that builds the document like nlohmann's DOM parser and keeps
// the path of the value being read, for error messages (json_paths.hpp).
#include <hodyn/robot_description/json_paths.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace hodyn {
namespace robot_description {
namespace {

using json = nlohmann::json;

class PathTrackingBuilder final : public nlohmann::json_sax<json> {
 public:
  json root;
  std::string error;

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(json(v)); }
  bool string(string_t& v) override { return add(json(std::move(v))); }
  bool binary(binary_t& v) override { return add(json::binary(std::move(v))); }

  bool start_object(std::size_t) override { return open(json::object(), false); }
  bool start_array(std::size_t) override { return open(json::array(), true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& top = frames_.back();
    if (top.container->contains(k)) {
      top.key = k;
      error = path(false) + ": duplicate key";
      return false;
    }
    top.key = k;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();  // "[json.exception.parse_error.101] parse error at line …"
    const std::size_t bracket = what.find("] ");
    if (what.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    if (ex.id == 406) what += " (not a finite double) at byte " + std::to_string(position);
    // nlohmann quotes the token it last read with control characters escaped
    // as <U+001F>, except DEL: escaped here too (found by tests/fuzz).
    for (std::size_t at = what.find('\x7f'); at != std::string::npos; at = what.find('\x7f', at))
      what.replace(at, 1, "<U+007F>");
    const std::string where = path(true);
    error = where.empty() ? what : where + ": " + what;
    return false;
  }

 private:
  struct Frame {
    json* container;
    bool array;
    std::size_t count = 0;  // array: values begun so far
    std::string key;        // object: the last key read
  };
  std::vector<Frame> frames_;

  // The new value's slot: the root, the next array element or the last key's value.
  json* place(json&& v) {
    if (frames_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& top = frames_.back();
    if (top.array) {
      ++top.count;
      top.container->push_back(std::move(v));
      return &top.container->back();
    }
    json& slot = (*top.container)[top.key];
    slot = std::move(v);
    return &slot;
  }
  bool add(json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(json&& v, bool array) {
    json* c = place(std::move(v));
    frames_.push_back(Frame{c, array, 0, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }

  // "rotors[2].axis[1]". At an error the innermost array's next element is
  // the one being read; outer arrays are inside their last element.
  std::string path(bool at_error) const {
    std::string p;
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      const Frame& fr = frames_[f];
      const bool innermost = f + 1 == frames_.size();
      if (fr.array) {
        const std::size_t index = (innermost && at_error) ? fr.count : fr.count - 1;
        p += "[" + std::to_string(index) + "]";
      } else if (!fr.key.empty()) {
        p += (p.empty() ? "" : ".") + key_text(fr.key);
      }
    }
    return p;
  }
};

}  // namespace

std::string json_quoted(const std::string& text) {
  const std::string quoted = json(text).dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  for (const char c : quoted) {
    if (c == 0x7f)
      out += "\\u007f";
    else
      out += c;
  }
  return out;
}

std::string key_text(const std::string& key) {
  for (const char c : key)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return json_quoted(key);
  return key;
}

JsonParse parse_json_with_paths(const std::string& text) {
  PathTrackingBuilder builder;
  JsonParse result;
  const bool ok = json::sax_parse(text, &builder);
  if (!ok || !builder.error.empty()) {
    result.error = builder.error.empty() ? "invalid JSON" : builder.error;
    return result;
  }
  result.value = std::move(builder.root);
  return result;
}

}  // namespace robot_description
}  // namespace hodyn
