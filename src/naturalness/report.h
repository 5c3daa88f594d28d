// The naturalness report a DBA reads (`plainsql profile`): text, JSON, CSV or one self-contained HTML file with charts
// (inline SVG and CSS; no scripts, no network).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "naturalness/profile.h"

namespace plainsql::naturalness {

enum class ProfileFormat { kText, kJson, kCsv, kHtml };
std::optional<ProfileFormat> ProfileFormatByName(std::string_view name);
/// The format an option names, or an invalid-argument error "--format must be text, json, csv or html, not 'x'".
Result<ProfileFormat> ParseProfileFormat(std::string_view name, std::string_view option = "--format");

struct ReportOptions {
  size_t top = 20;  // how many of the least natural names to list (text, HTML); JSON and CSV list every name
};

std::string RenderProfile(const SchemaProfile& profile, ProfileFormat format, const ReportOptions& options = {});

}  // namespace plainsql::naturalness
