"""Test fixture: a hand-made reference implementation (a tiny store) behind the reference protocol.

make() -> object with reset(state), call(name, arguments) -> {"ok", "output"}, state().
"""
import copy


class Store:
    def __init__(self):
        self.data = {}

    def reset(self, state):
        self.data = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.data)

    def _item(self, item_id):
        if item_id not in self.data["items"]:
            raise ValueError(f"item {item_id} not found")
        return self.data["items"][item_id]

    def get_item(self, item_id):
        return dict(self._item(item_id))

    def add_item(self, item_id, name, qty, price):
        if item_id in self.data["items"]:
            raise ValueError(f"item {item_id} exists")
        self.data["items"][item_id] = {"id": item_id, "name": name, "qty": qty, "price": price}
        return dict(self.data["items"][item_id])

    def set_qty(self, item_id, qty):
        self._item(item_id)["qty"] = qty
        return {"item_id": item_id, "qty": qty}

    def sell(self, item_id, n):
        item = self._item(item_id)
        if item["qty"] < n:
            raise ValueError(f"only {item['qty']} of {item_id} left")
        item["qty"] -= n
        self.data["sold"] += n
        return {"item_id": item_id, "qty": item["qty"], "total": item["price"] * n}

    def remove_item(self, item_id):
        self._item(item_id)
        del self.data["items"][item_id]
        return {"removed": item_id}

    def call(self, name, arguments):
        if name not in ("get_item", "add_item", "set_qty", "sell", "remove_item"):
            return {"ok": False, "output": f"unknown tool {name}"}
        try:
            return {"ok": True, "output": getattr(self, name)(**arguments)}
        except (ValueError, TypeError) as err:
            return {"ok": False, "output": f"Error: {err}"}


def make():
    return Store()
