// Data dictionary text (see dictionary.h).
#include "naturalness/dictionary.h"

#include <fmt/format.h>

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <pugixml.hpp>
#include <vector>

#include "common/file.h"
#include "common/strings.h"

namespace plainsql::naturalness {

namespace {

void CollectXmlText(const pugi::xml_node& node, std::string& out) {
  for (const pugi::xml_attribute& a : node.attributes()) {
    out += a.value();
    out += '\n';
  }
  for (const pugi::xml_node& child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      out += child.value();
      out += '\n';
    } else if (child.type() == pugi::node_element) {
      CollectXmlText(child, out);
    }
  }
}

}  // namespace

Result<std::string> DictionaryText(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // A folder (BIRD's database_description: one CSV per table): its files in name order, each on its own lines.
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path().string());
    }
    if (files.empty()) return MakeError(ErrorCode::kNotFound, fmt::format("{}: no file in the folder", path));
    std::sort(files.begin(), files.end());
    std::string out;
    for (const auto& file : files) {
      auto text = DictionaryText(file);
      if (!text) return text.error();
      out += *text;
      out += '\n';
    }
    return out;
  }
  std::string ext = ToLower(std::filesystem::path(path).extension().string());
  if (ext == ".xml") {
    if (!std::filesystem::exists(path)) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
    pugi::xml_document doc;
    pugi::xml_parse_result parsed = doc.load_file(path.c_str());
    if (!parsed) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}: not readable as XML: {} (at byte {})", path,
                                                       parsed.description(), parsed.offset));
    }
    std::string out;
    CollectXmlText(doc, out);
    return out;
  }
  if (ext == ".pdf") {
    if (!std::filesystem::exists(path)) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
    // poppler reports damage on stderr by default; the error below says it once, in plainsql's words.
    poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr);
    std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path));
    if (!doc || doc->is_locked()) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}: not readable as PDF (damaged or encrypted)", path));
    }
    std::string out;
    for (int i = 0; i < doc->pages(); ++i) {
      std::unique_ptr<poppler::page> page(doc->create_page(i));
      if (!page) continue;
      poppler::byte_array utf8 = page->text().to_utf8();
      out.append(utf8.begin(), utf8.end());
      out += '\n';
    }
    return out;
  }
  auto text = ReadFileToString(path);
  if (text && !IsUtf8(*text)) return Windows1252ToUtf8(*text);  // a spreadsheet export
  return text;
}

}  // namespace plainsql::naturalness
