# what: generator frame to reach globals
# expect: refuse
# reason: "gi_frame" is a restricted name
def attack(state, path=None, envvar=None):
    g = (x for x in [1])
    return str(g.gi_frame.f_globals)
