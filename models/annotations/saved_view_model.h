#pragma once
// SavedViewModel holds the session's saved views (the `bookmark` table): a name, a visible range and
// the timeline's track layout. It remembers which one is current so next()/previous() step through
// them, and turns a finding into saved views over its evidence (one per evidence step — e.g. every
// checkpoint iteration — or one over its time range). Shared per window through
// SavedViewModel::of(session); SavedViewListView and MainWindow's Saved Views menu call it.

#include "models/store/annotation_store.h"
#include "models/qt/session_model.h"

#include <QObject>

#include <vector>

namespace stepscope {

struct Finding;
struct StepTimeline;

class SavedViewModel : public QObject {
    Q_OBJECT
public:
    static SavedViewModel *of(SessionModel *session);

    const std::vector<SavedView> &views() const { return m_views; }
    int current() const { return m_current; }  // index into views(), -1 when none
    bool canWrite() const;

    int64_t add(const SavedView &v);
    void rename(int64_t id, const std::string &name);
    void remove(int64_t id);

    // Makes `index` current and returns it (nullptr when out of range); next/previous wrap around.
    const SavedView *select(int index);
    const SavedView *next();
    const SavedView *previous();

    // Saved views for a finding's evidence: one per evidence step found in `steps` (a 10% margin each
    // side), else one over the finding's range. Returns how many were added; the first becomes current.
    int addEvidence(const Finding &finding, const StepTimeline &steps, const std::string &layout = {});
    // The views addEvidence() would add, without writing them (tests, previews).
    static std::vector<SavedView> evidenceViews(const Finding &finding, const StepTimeline &steps);

signals:
    void changed();
    void currentChanged(int index);

private:
    explicit SavedViewModel(SessionModel *session);
    void reload();

    SessionModel *m_session;
    std::vector<SavedView> m_views;
    int m_current = -1;
};

} // namespace stepscope
