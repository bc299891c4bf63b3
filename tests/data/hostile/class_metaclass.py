# what: a class with a metaclass
# expect: refuse
# reason: class definitions are not allowed
class Evil(metaclass=None):
    pass


def attack(state, path=None, envvar=None):
    return 1
