#pragma once
// The one colour source of the views and legends. Colours follow identity (STYLE.md): an interned
// name maps to one colour in every view (timeline slices, op tables, the Range tab's swatches,
// legends), a step-time category to one colour (step bars, legends, findings, captions, critical
// path marks), a chart series to one of a fixed palette (Utilization), and the grey of a grouped
// chart's members and means is defined here once. Pure functions, no state; any model or view may
// include this.

#include "models/analysis/engine/category.h"

#include <QColor>
#include <QStringView>

#include <cstddef>
#include <cstdint>

namespace stepscope {

// Fill colour for slices and table swatches of the name with this interned id. Light, varied
// hues that keep dark 9-10 pt text readable on top.
QColor nameColor(int64_t nameId);

// The colour of a name given as text — what every view uses, so an op has one colour wherever it
// appears (and in every session). Numbered repeats ("ProfilerStep#12", "ProfilerStep#13") share
// their stem's colour.
QColor nameColorForText(QStringView name);

// Text colour (dark or white) that reads on `fill`.
QColor textColorOn(const QColor &fill);

// One colour per step-time category, the same in every view.
QColor categoryColor(Category c);

// Chart series: Tableau-10, distinct, print-friendly hues; index wraps.
QColor seriesPaletteColor(size_t index);

// Charts of many members (ranks, GPUs) grouped under their mean: the members thin in a light grey,
// the mean dark, and a second role's mean (the allocator's reserve beside what is allocated)
// lighter, so the two means tell apart.
inline constexpr QRgb kMemberGrey = 0xffc4c4c4;  // opaque: ColumnEnvelopeGraph's fast path
inline constexpr QRgb kMeanGrey = 0xff333333;
inline constexpr QRgb kSecondMeanGrey = 0xff999999;

} // namespace stepscope
