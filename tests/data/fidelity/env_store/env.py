"""Test fixture: a faithful environment for ../ref_store, in the restricted style of generated code."""


def find_item(state, item_id):
    item = state["items"].get(item_id)
    if item is None:
        raise ToolError("no item " + item_id)
    return item


def get_item(state, item_id):
    return dict(find_item(state, item_id))


def add_item(state, item_id, name, qty, price):
    if item_id in state["items"]:
        raise ToolError("duplicate item " + item_id)
    state["items"][item_id] = {"id": item_id, "name": name, "qty": qty, "price": price}
    return dict(state["items"][item_id])


def set_qty(state, item_id, qty):
    item = find_item(state, item_id)
    item["qty"] = qty
    return {"item_id": item_id, "qty": qty}


def sell(state, item_id, n):
    item = find_item(state, item_id)
    if item["qty"] < n:
        raise ToolError("not enough stock")
    item["qty"] = item["qty"] - n
    state["sold"] = state["sold"] + n
    return {"item_id": item_id, "qty": item["qty"], "total": round(item["price"] * n, 2)}


def remove_item(state, item_id):
    find_item(state, item_id)
    del state["items"][item_id]
    return {"removed": item_id}
