// The ranks' run commands: step, over, out, continue and the first pause, with every rank paused
// together and lined up at one node.
//
// Note [pausing the ranks together]: the ranks run the same script, so they run the same nodes,
// numbered alike (RankPause::seq), and meet at every collective of the world. A run command ends
// when every rank answered with its pause. A step waits up to runTimeout for all of them. A
// continue runs as long as every rank runs (a long training is no hang; a rank that never reaches
// a collective fails there after GRADSTEP_COLLECTIVE_TIMEOUT). Once one rank stopped (a
// breakpoint or watchpoint only its data meets, the end), the others are asked every
// kPokeInterval where they are ("poke": the world's collectives they completed, whether they
// wait in one); they are paused when one of them waits in a collective a stopped rank has not
// entered (it would wait forever), when runTimeout passed, or when the user asked for a pause:
// they are told to pause after their current node. A rank that cannot, because it waits inside a
// collective for ranks that paused before it, is found by a poke: those ranks are sent on through
// that collective ("sync": run until the world completed that many), which lets it complete, and
// every rank pauses right after it. Last, ranks that paused at an earlier node than the furthest
// one are stepped to it ("runto"), so all stand at one node. Each of these waits is bounded by
// runTimeout; a rank that still did not answer ends the ranks with a message naming it, what it
// said of itself and where the others are.
// SPDX-License-Identifier: MIT
#include "session/rank_controller.h"

#include <algorithm>

namespace gradstep::session {

namespace {

using Clock = RankController::Clock;

/// How long the ranks still running get to honour a pause before they are asked where they are,
/// and how often the ranks still running are asked once one stopped.
constexpr std::chrono::milliseconds kPauseGrace{1500};
constexpr std::chrono::milliseconds kPokeInterval{250};

} // namespace

std::vector<RankPause> RankController::broadcastRun(const std::string& command)
{
    std::lock_guard call(m_callMutex);
    struct ForgetPause {
        std::atomic<bool>& flag;
        ~ForgetPause() { flag = false; }
    } forget{m_pauseRequested};
    if (command == "where") {
        std::vector<RankPause> pauses;
        for (const RankMessage& m :
             exchange(Json(Json::Object{{"cmd", command}}), everyRank(), m_options.queryTimeout))
            pauses.push_back(rankPauseFromJson(m.header));
        return pauses;
    }
    return runAll(command, command == "continue");
}

std::vector<RankPause> RankController::runAll(const std::string& command, bool unbounded)
{
    m_pokes.clear();
    send(Json(Json::Object{{"cmd", command}}), everyRank());
    Answers answers(static_cast<std::size_t>(m_options.ranks));
    // A step has runTimeout; a continue runs until a pause is asked for or one rank stopped and
    // the others do not follow: runTimeout passed, or one waits in a collective a stopped rank
    // will not enter (each still running is asked where it is).
    const auto started = Clock::now();
    std::optional<Clock::time_point> firstAnswer;
    Clock::time_point lastPoke{};
    const auto waitsForStopped = [&] {
        for (std::size_t r = 0; r < answers.size(); ++r) {
            if (answers[r] || r >= m_pokes.size() || !m_pokes[r] || !(*m_pokes[r])["inCollective"].asBool())
                continue;
            const std::int64_t completed = (*m_pokes[r])["collectives"].asInt();
            for (const auto& a : answers)
                if (a) {
                    const RankPause stopped = rankPauseFromJson(a->header);
                    if (stopped.status != "paused" || stopped.collectives <= completed)
                        return true;
                }
        }
        return false;
    };
    receive(command, answers, unbounded ? Clock::time_point::max() : started + m_options.runTimeout, [&] {
        if (m_pauseRequested)
            return true;
        const auto now = Clock::now();
        for (const auto& a : answers)
            if (a && !firstAnswer)
                firstAnswer = now;
        if (!firstAnswer)
            return false;
        if (now > *firstAnswer + m_options.runTimeout || waitsForStopped())
            return true;
        if (now - lastPoke > kPokeInterval) {
            std::vector<int> running;
            for (std::size_t r = 0; r < answers.size(); ++r)
                if (!answers[r])
                    running.push_back(static_cast<int>(r));
            send(Json(Json::Object{{"cmd", "poke"}}), running);
            lastPoke = now;
        }
        return false;
    });
    return settle(command, answers);
}

std::vector<RankPause> RankController::settle(const std::string& name, Answers& answers)
{
    std::vector<std::optional<RankPause>> lastKnown(answers.size());
    const auto remember = [&] {
        for (std::size_t r = 0; r < answers.size(); ++r)
            if (answers[r])
                lastKnown[r] = rankPauseFromJson(answers[r]->header);
    };
    if (!pendingRanks(answers).empty()) {
        send(Json(Json::Object{{"cmd", "pause"}}), pendingRanks(answers));
        receive(name, answers, Clock::now() + kPauseGrace);
        // Ranks that still run either compute (they pause after their node) or wait inside a
        // collective for ranks that paused before it: those are sent on through it.
        const auto deadline = Clock::now() + m_options.runTimeout;
        std::int64_t syncedTo = 0;
        while (!pendingRanks(answers).empty() && Clock::now() < deadline) {
            remember();
            send(Json(Json::Object{{"cmd", "poke"}}), pendingRanks(answers));
            receive(name, answers, Clock::now() + std::chrono::milliseconds(300));
            std::int64_t target = 0;
            for (std::size_t r = 0; r < m_pokes.size(); ++r)
                if (!answers[r] && m_pokes[r] && (*m_pokes[r])["inCollective"].asBool())
                    target = std::max(target, (*m_pokes[r])["collectives"].asInt() + 1);
            if (target > syncedTo) {
                std::vector<int> behind;
                for (std::size_t r = 0; r < answers.size(); ++r)
                    if (answers[r] && lastKnown[r] && lastKnown[r]->status == "paused"
                        && lastKnown[r]->collectives < target)
                        behind.push_back(static_cast<int>(r));
                for (int r : behind)
                    answers[static_cast<std::size_t>(r)].reset();
                send(Json(Json::Object{{"cmd", "sync"}, {"collectives", target}}), behind);
                syncedTo = target;
            }
            receive(name, answers, std::min(deadline, Clock::now() + std::chrono::milliseconds(500)));
        }
        if (!pendingRanks(answers).empty())
            endUnanswered(name, answers, lastKnown,
                          syncedTo ? " (the paused ranks were sent on to the world's collective #"
                                         + std::to_string(syncedTo) + ", in which the others waited)"
                                   : std::string());
    }
    remember();
    std::vector<RankPause> pauses;
    for (const auto& p : lastKnown)
        pauses.push_back(*p);
    return lineUp(name, std::move(pauses));
}

std::vector<int> RankController::pendingRanks(const Answers& answers)
{
    std::vector<int> pending;
    for (std::size_t r = 0; r < answers.size(); ++r)
        if (!answers[r])
            pending.push_back(static_cast<int>(r));
    return pending;
}

std::vector<RankPause> RankController::lineUp(const std::string& name, std::vector<RankPause> pauses)
{
    bool atNodes = true;
    const RankPause* furthest = &pauses.front();
    for (const RankPause& p : pauses) {
        atNodes = atNodes && p.atNode();
        if (p.step > furthest->step || (p.step == furthest->step && p.seq > furthest->seq))
            furthest = &p;
    }
    if (!atNodes || ranksAtSameNode(pauses))
        return pauses;
    std::vector<int> behind;
    for (const RankPause& p : pauses)
        if (!p.sameNode(*furthest))
            behind.push_back(p.rank);
    const Json runTo(Json::Object{{"cmd", "runto"}, {"step", furthest->step}, {"seq", furthest->seq}});
    const std::string how = " (while they were stepped to node #" + std::to_string(furthest->seq) + ")";
    Answers answers(pauses.size(), RankMessage{});
    for (int r : behind)
        answers[static_cast<std::size_t>(r)].reset();
    send(runTo, behind);
    receive(name, answers, Clock::now() + m_options.runTimeout);
    std::vector<std::optional<RankPause>> lastKnown(pauses.begin(), pauses.end());
    if (!pendingRanks(answers).empty())
        endUnanswered(name, answers, lastKnown, how);
    for (int r : behind)
        pauses[static_cast<std::size_t>(r)] = rankPauseFromJson(answers[static_cast<std::size_t>(r)]->header);
    return pauses;
}

void RankController::endUnanswered(const std::string& name, const Answers& answers,
                                   const std::vector<std::optional<RankPause>>& lastKnown, const std::string& how)
{
    std::vector<int> missing;
    std::string others;
    for (std::size_t r = 0; r < answers.size(); ++r) {
        const std::string rank = "; rank " + std::to_string(r);
        const std::optional<Json>* poke = r < m_pokes.size() ? &m_pokes[r] : nullptr;
        if (!answers[r]) {
            missing.push_back(static_cast<int>(r));
            if (poke && *poke)
                others += rank
                          + ((**poke)["inCollective"].asBool()
                                 ? " waits in the world's collective #"
                                       + std::to_string((**poke)["collectives"].asInt() + 1)
                                 : std::string(" still runs, outside the collectives (a long computation, or a call "
                                               "that blocks)"));
        }
        if (lastKnown[r])
            others += rank + (lastKnown[r]->atNode() ? " last paused at " : " ") + lastKnown[r]->describe();
    }
    endWith("rank(s) " + rankList(missing) + " did not answer '" + name + "' within "
            + secondsText(m_options.runTimeout)
            + how + others + "; the ranks were stopped" + outputTail());
}

std::vector<RankPause> RankController::step()
{
    return broadcastRun("step");
}

std::vector<RankPause> RankController::stepOver()
{
    return broadcastRun("over");
}

std::vector<RankPause> RankController::stepOut()
{
    return broadcastRun("out");
}

std::vector<RankPause> RankController::continueRun()
{
    return broadcastRun("continue");
}

std::vector<RankPause> RankController::where()
{
    return broadcastRun("where");
}

} // namespace gradstep::session
