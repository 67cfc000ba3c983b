#pragma once
// The models one session's views share, handed to each view's constructor by its owner (the main
// window's view table, the compare window, a test), so that no view looks one up: the session, the
// linked time range, the session's analyses (AnalysisModel), its notes (AnnotationModel) and its
// saved views (SavedViewModel).

namespace stepscope {

class AnalysisModel;
class AnnotationModel;
class SavedViewModel;
class SessionModel;
class TimeRangeController;

struct SessionModels {
    SessionModel *session = nullptr;
    TimeRangeController *time = nullptr;
    AnalysisModel *analysis = nullptr;       // null without a session
    AnnotationModel *annotations = nullptr;  // null without a session
    SavedViewModel *savedViews = nullptr;    // null without a session
    // The models attached to `session` (each made on first use), with `time`: what an owner hands on.
    static SessionModels of(SessionModel *session, TimeRangeController *time);
};

} // namespace stepscope
