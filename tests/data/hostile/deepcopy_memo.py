# what: copy.deepcopy(x, memo) would write into state outside the guards
# expect: contain
# status: exception
# reason: TypeError
import copy


def attack(state, path=None, envvar=None):
    copy.deepcopy([1], state)
    return state
