"""mindspore.communication (and .management): init, the rank queries, groups and release, over
gradstep's MPI world (core/dist). MindSpore's HCCL, NCCL and MCCL world groups all name the MPI
world: gradstep computes on the CPU whatever device_target says, and every backend name a script
may pass runs over MPI where MindSpore on that device_target would accept it. Started without a
launcher, init() gives a world of one rank."""
import mindspore.communication as _comm
from mindspore import context as _context

__all__ = ["init", "release", "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group",
           "destroy_group", "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"


class Backend:
    """The name of a communication backend, as MindSpore's (hccl, nccl, mccl)."""

    def __new__(cls, name):
        if not isinstance(name, str):
            raise TypeError("For 'Backend', the class variable 'name' must be a string, "
                            "but got the type : {}".format(type(name)))
        return str.__new__(str, name.lower())


class GlobalComm:
    """The communication service's state, as MindSpore's GlobalComm."""
    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def _check_group(function, group):
    if not isinstance(group, str):
        raise TypeError("For '{}', the argument 'group' must be type of string, "
                        "but got 'group' type : {}.".format(function, type(group)))


def _check_inited(function):
    if not GlobalComm.INITED:
        raise RuntimeError("For '{}', the communication service is not initialized: call "
                           "mindspore.communication.init() first.".format(function))


def init(backend_name=None):
    """Starts the communication service over MPI: one rank per process that mpirun started
    (`gradstep run --ranks N` starts them), else a world of one rank."""
    device_target = _context.get_context("device_target")
    if backend_name is None:
        if device_target == "Ascend":
            backend_name = "hccl"
        elif device_target == "GPU":
            backend_name = "nccl"
        elif device_target == "CPU":
            backend_name = "mccl"
        else:
            raise RuntimeError("For 'set_context', the argument 'device_target' {} is not supported in "
                               "parallel initialization, please use Ascend, GPU or CPU.".format(device_target))
    if not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, "
                        "but got the type : {}".format(type(backend_name)))
    if backend_name == "hccl" and device_target != "Ascend":
        raise RuntimeError("For 'init', the argument  'backend_name' should be 'Ascend' to init hccl, "
                           "but got {}".format(device_target))
    if backend_name == "nccl" and device_target != "GPU":
        raise RuntimeError("For 'init', the argument 'backend_name' must be nccl while 'device_target' is GPU, "
                           "but got the 'device_target' : {}.".format(device_target))
    if backend_name not in ("hccl", "nccl", "mccl"):
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' or 'mccl', "
                           "but got the 'backend_name' : {}.".format(backend_name))
    _comm._init()
    GlobalComm.BACKEND = Backend(backend_name)
    GlobalComm.WORLD_COMM_GROUP = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP,
                                   "mccl": MCCL_WORLD_COMM_GROUP}[backend_name]
    GlobalComm.INITED = True


def release():
    """Releases the communication service: groups are destroyed and the queries fail until init()
    again (MPI itself ends with the run)."""
    _check_inited("release")
    _comm._release()
    GlobalComm.INITED = False


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process in the group."""
    _check_group("get_rank", group)
    _check_inited("get_rank")
    return _comm._rank(group)


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process among the ranks on its machine."""
    _check_group("get_local_rank", group)
    _check_inited("get_local_rank")
    return _comm._local_rank()


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks in the group."""
    _check_group("get_group_size", group)
    _check_inited("get_group_size")
    return _comm._size(group)


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks on this machine."""
    _check_group("get_local_rank_size", group)
    _check_inited("get_local_rank_size")
    return _comm._local_size()


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of rank group_rank_id of the group."""
    _check_group("get_world_rank_from_group_rank", group)
    if not isinstance(group_rank_id, int) or isinstance(group_rank_id, bool):
        raise TypeError("For 'get_world_rank_from_group_rank', the argument 'group_rank_id' must be type of int, "
                        "but got 'group_rank_id' type : {}.".format(type(group_rank_id)))
    _check_inited("get_world_rank_from_group_rank")
    return _comm._world_rank_of(group, group_rank_id)


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in the group of world rank world_rank_id."""
    _check_group("get_group_rank_from_world_rank", group)
    if not isinstance(world_rank_id, int) or isinstance(world_rank_id, bool):
        raise TypeError("For 'get_group_rank_from_world_rank', the argument 'world_rank_id' must be type of int, "
                        "but got 'world_rank_id' type : {}.".format(type(world_rank_id)))
    _check_inited("get_group_rank_from_world_rank")
    return _comm._group_rank_of(group, world_rank_id)


def create_group(group, rank_ids):
    """A group of the given world ranks; every rank in rank_ids must call it."""
    _check_group("create_group", group)
    if not isinstance(rank_ids, list):
        raise TypeError("For 'create_group', the argument 'rank_ids' must be type of list, "
                        "but got 'rank_ids' type : {}.".format(type(rank_ids)))
    _check_inited("create_group")
    _comm._create_group(group, [int(r) for r in rank_ids])


def destroy_group(group):
    """Destroys a group made by create_group."""
    _check_group("destroy_group", group)
    _check_inited("destroy_group")
    _comm._destroy_group(group)


def _gradstep_reset():
    GlobalComm.BACKEND = "hccl"
    GlobalComm.WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    GlobalComm.INITED = False


for _name in __all__:
    setattr(_comm, _name, globals()[_name])
_comm.management = __import__("sys").modules[__name__]
