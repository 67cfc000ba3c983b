#pragma once
// The 12 canonical step-time categories of DESIGN.md, in the report's display order. The analysis
// engine maps the "stepscope" preset of the rules file onto these (by name), so the report, the views
// and the findings can name categories without strings. Owned by the analysis engine; read by the
// report formatter and the views (which give each category one colour everywhere).

#include <array>
#include <optional>
#include <string_view>

namespace stepscope {

enum class Category {
    DeviceCompute, Collective, H2D, D2H, D2D, KernelLaunch, Input, HostCompute, Callback, Checkpoint,
    Compilation, Other
};
inline constexpr int kCategoryCount = 12;

inline constexpr std::array<std::string_view, kCategoryCount> kCategoryNames{
    "device_compute", "collective", "h2d", "d2h", "d2d", "kernel_launch",
    "input", "host_compute", "callback", "checkpoint", "compilation", "other"};

inline constexpr std::string_view categoryName(Category c) { return kCategoryNames[size_t(c)]; }

inline std::optional<Category> categoryFromName(std::string_view name) {
    for (int i = 0; i < kCategoryCount; ++i)
        if (kCategoryNames[size_t(i)] == name) return Category(i);
    return std::nullopt;
}

// True for categories that are GPU activity (they hide host work under them).
inline constexpr bool isDeviceCategory(Category c) {
    return c == Category::DeviceCompute || c == Category::Collective || c == Category::H2D ||
           c == Category::D2H || c == Category::D2D;
}

} // namespace stepscope
