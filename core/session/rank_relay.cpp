// Note [rank 0 in the window]: the window debugs a data-parallel script as its ranks, with rank 0
// in its own session, so that its graph, source, variables, gradients and charts are rank 0's
// (that is the honest reading: every view shows one real rank, said in the window). The window
// cannot be an MPI rank itself (MPI starts once per process and cannot restart; Qt and Python
// threads), so mpirun starts a relay as MPI rank 0 and N-1 debugging ranks (`gradstep debug`
// each); the window's dist layer joins the MPI world through the relay (dist/remote_world.h):
// each collective's input goes to the relay over a Unix socket, the relay runs the collective in
// MPI and sends the result back. The window's session is then served to the ranks' controller
// like any rank (rank_server.h, on a thread of the window), so stepping, pausing and lining up
// treat the N ranks alike. Collective timeouts stay MPI's (the relay's GRADSTEP_COLLECTIVE_TIMEOUT)
// and their messages reach the script unchanged. SPDX-License-Identifier: MIT
#include "session/rank_relay.h"

#include "session/rank_wire.h"

#include "tensor/errors.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace gradstep::session {

namespace {

const char* kindName(dist::CollectiveKind kind)
{
    switch (kind) {
    case dist::CollectiveKind::AllReduce: return "allreduce";
    case dist::CollectiveKind::AllGather: return "allgather";
    case dist::CollectiveKind::ReduceScatter: return "reducescatter";
    case dist::CollectiveKind::Broadcast: return "broadcast";
    case dist::CollectiveKind::AllToAll: return "alltoall";
    }
    return "?";
}

dist::CollectiveKind kindNamed(const std::string& name)
{
    using dist::CollectiveKind;
    for (auto kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                      CollectiveKind::Broadcast, CollectiveKind::AllToAll})
        if (name == kindName(kind))
            return kind;
    throw ValueError("the relay got an unknown collective '" + name + "'");
}

class RelayWorld final : public dist::RemoteWorld {
public:
    explicit RelayWorld(int fd) : m_reader(fd) {}
    ~RelayWorld() override { ::close(m_reader.fd()); }

    dist::Launch join() override
    {
        const RankMessage answer = call(Json(Json::Object{{"call", "join"}}), {}, "init");
        dist::Launch launch;
        launch.launched = true;
        launch.rank = static_cast<int>(answer.header["rank"].asInt());
        launch.size = static_cast<int>(answer.header["size"].asInt());
        launch.localRank = static_cast<int>(answer.header["localRank"].asInt());
        launch.localSize = static_cast<int>(answer.header["localSize"].asInt());
        return launch;
    }

    void collective(dist::CollectiveKind kind, const void* in, std::size_t inBytes, void* out, std::size_t outBytes,
                    std::int64_t count, dist::ElementType type, dist::ReduceOp op, int root, const std::string& group,
                    const char* opName) override
    {
        const RankMessage answer =
            call(Json(Json::Object{{"call", kindName(kind)}, {"count", count}, {"type", static_cast<int>(type)},
                                   {"op", static_cast<int>(op)}, {"root", root}, {"group", group},
                                   {"name", std::string(opName)}, {"out", outBytes}}),
                 std::string_view(static_cast<const char*>(in), inBytes), opName);
        if (answer.block.size() != outBytes)
            throw RuntimeError(std::string("For '") + opName + "', the relay sent "
                               + std::to_string(answer.block.size()) + " bytes, not " + std::to_string(outBytes));
        if (outBytes)
            std::memcpy(out, answer.block.data(), outBytes);
    }

    std::vector<std::vector<double>> gatherToRoot(const std::vector<double>& values) override
    {
        const RankMessage answer = call(Json(Json::Object{{"call", "gather"}}), doublesToBlock(values), "gather");
        std::vector<std::vector<double>> out;
        std::size_t at = 0;
        for (const Json& n : answer.header["counts"].asArray()) {
            const auto count = static_cast<std::size_t>(n.asInt());
            out.push_back(doublesFromBlock(answer.block, at, count));
            at += count * sizeof(double);
        }
        return out;
    }

    void createGroup(const std::string& group, const std::vector<int>& worldRanks) override
    {
        Json::Array ranks;
        for (int r : worldRanks)
            ranks.emplace_back(r);
        call(Json(Json::Object{{"call", "create"}, {"group", group}, {"ranks", Json(std::move(ranks))}}), {},
             "create_group");
    }

    void destroyGroup(const std::string& group) override
    {
        call(Json(Json::Object{{"call", "destroy"}, {"group", group}}), {}, "destroy_group");
    }

    void interrupt() override
    {
        m_interrupted = true;
        ::shutdown(m_reader.fd(), SHUT_RDWR);
    }

private:
    RankMessage call(const Json& request, std::string_view block, const char* what)
    {
        const auto gone = [&] {
            return RuntimeError(std::string("For '") + what
                                + "', the ranks ended: the connection to MPI rank 0 (the window's relay under mpirun) "
                                  "closed");
        };
        if (m_interrupted || !sendRankMessage(m_reader.fd(), request, block))
            throw gone();
        RankMessage answer;
        for (;;) {
            const auto got = m_reader.read(std::chrono::milliseconds(1000), answer);
            if (got == RankReader::Result::Message)
                break;
            if (got == RankReader::Result::Closed || m_interrupted)
                throw gone();
        }
        if (const Json* error = answer.header.find("error"))
            throw RuntimeError(error->asString());
        return answer;
    }

    RankReader m_reader;
    std::atomic<bool> m_interrupted{false};
};

/// One call of the window's remote world, carried out here; the answer to send back.
RankMessage carryOut(const RankMessage& request)
{
    const Json& h = request.header;
    const std::string call = h["call"].asString();
    RankMessage answer;
    answer.header = Json(Json::Object{});
    if (call == "join") {
        dist::initialize();
        answer.header["rank"] = dist::rank("hccl_world_group");
        answer.header["size"] = dist::size("hccl_world_group");
        answer.header["localRank"] = dist::localRank();
        answer.header["localSize"] = dist::localSize();
    } else if (call == "gather") {
        const auto values = doublesFromBlock(request.block, 0, request.block.size() / sizeof(double));
        Json::Array counts;
        for (const auto& v : dist::gatherToRoot(values)) {
            counts.emplace_back(v.size());
            answer.block += doublesToBlock(v);
        }
        answer.header["counts"] = Json(std::move(counts));
    } else if (call == "create") {
        std::vector<int> ranks;
        for (const Json& r : h["ranks"].asArray())
            ranks.push_back(static_cast<int>(r.asInt()));
        dist::createGroup(h["group"].asString(), ranks);
    } else if (call == "destroy") {
        dist::destroyGroup(h["group"].asString());
    } else {
        const dist::CollectiveKind kind = kindNamed(call);
        const std::string name = h["name"].asString();
        const std::string group = h["group"].asString();
        const auto count = h["count"].asInt();
        const auto type = static_cast<dist::ElementType>(h["type"].asInt());
        const auto op = static_cast<dist::ReduceOp>(h["op"].asInt());
        answer.block.assign(static_cast<std::size_t>(h["out"].asInt()), '\0');
        const char* in = request.block.data();
        char* out = answer.block.data();
        switch (kind) {
        case dist::CollectiveKind::AllReduce: dist::allReduce(in, out, count, type, op, group, name.c_str()); break;
        case dist::CollectiveKind::AllGather: dist::allGather(in, out, count, type, group, name.c_str()); break;
        case dist::CollectiveKind::ReduceScatter:
            dist::reduceScatter(in, out, count, type, op, group, name.c_str());
            break;
        case dist::CollectiveKind::Broadcast:
            std::memcpy(out, in, std::min(answer.block.size(), request.block.size()));
            dist::broadcast(out, count, type, static_cast<int>(h["root"].asInt()), group, name.c_str());
            break;
        case dist::CollectiveKind::AllToAll: dist::allToAll(in, out, count, type, group, name.c_str()); break;
        }
    }
    return answer;
}

} // namespace

std::shared_ptr<dist::RemoteWorld> relayWorld(int fd)
{
    return std::make_shared<RelayWorld>(fd);
}

int serveRelay(const std::string& socketPath, int rank, int size, std::string& error)
{
    const int fd = connectToController(socketPath, error);
    if (fd < 0)
        return 1;
    RankReader reader(fd);
    if (sendRankMessage(fd, Json(Json::Object{{"relay", rank}, {"size", size}, {"pid", ::getpid()}}))) {
        for (;;) {
            RankMessage request;
            const auto got = reader.read(std::chrono::milliseconds(1000), request);
            if (got == RankReader::Result::Closed)
                break;
            if (got != RankReader::Result::Message)
                continue;
            RankMessage answer;
            try {
                answer = carryOut(request);
            } catch (const std::exception& e) {
                answer.header = Json(Json::Object{{"error", std::string(e.what())}});
                answer.block.clear();
            }
            if (!sendRankMessage(fd, answer.header, answer.block))
                break;
        }
    }
    ::close(fd);
    return 0;
}

} // namespace gradstep::session
