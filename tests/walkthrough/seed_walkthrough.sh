#!/usr/bin/env bash
# The walk-through of shared/seeds/kova-autoincrement.txt, run through the
# real `kova command --canonical`, one process per step (so every step is
# also a restart). Its output is compared with expected.txt, whose values are
# the ones the seed states; at the end the data is read again from a fresh
# process and must be unchanged.
# usage: seed_walkthrough.sh KOVA_BINARY EXPECTED_FILE
set -u
kova=$1
expected=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$work/data
out=$work/out.txt

step() { echo "# $*"; }
run() {
  local db=$1 json=$2
  echo "\$ kova command --db $db --canonical '$json'"
  "$kova" command --data "$data" --db "$db" --canonical "$json"
  echo "(exit $?)"
}
show_orders() {
  run shop '{"find": "orders", "projection": {"_id": 0}, "sort": {"id": 1}}'
}
show_counter() {
  run admin '{"find": "counters", "filter": {"collection": "shop.orders"}}'
}

{
  step "Declare it"
  run shop '{"create": "orders", "autoincrement": "id"}'
  run shop2 '{"create": "orders", "autoincrement": ["id", "ticket"]}'
  step "The counters row"
  show_counter
  run admin '{"find": "counters", "filter": {"collection": "shop2.orders"}}'
  step "What an insert does: 1, then 2"
  run shop '{"insert": "orders", "documents": [{"sku": "kettle"}]}'
  show_counter
  run shop '{"insert": "orders", "documents": [{"sku": "mug"}]}'
  show_orders
  step "A value you send is kept: 50, then the next is 51"
  run shop '{"insert": "orders", "documents": [{"sku": "bowl", "id": 50}]}'
  run shop '{"insert": "orders", "documents": [{"sku": "plate"}]}'
  show_orders
  step "A lower value is kept too, and last stays"
  run shop '{"insert": "orders", "documents": [{"sku": "spoon", "id": 7}]}'
  show_counter
  step "The unique index rejects a duplicate"
  run shop '{"insert": "orders", "documents": [{"sku": "fork", "id": 50}]}'
  step "Move the counter by hand: last 10 -> 11"
  run admin '{"update": "counters", "updates": [{"q": {"_id": "shop.orders.id"}, "u": {"$set": {"last": 10}}, "multi": false}]}'
  run shop '{"insert": "orders", "documents": [{"sku": "knife"}]}'
  step "last 500 -> 501"
  run admin '{"update": "counters", "updates": [{"q": {"_id": "shop.orders.id"}, "u": {"$set": {"last": 500}}, "multi": false}]}'
  run shop '{"insert": "orders", "documents": [{"sku": "tray"}]}'
  step "last 2147483646 -> 2147483647 (int32), then 2147483648 (int64)"
  run admin '{"update": "counters", "updates": [{"q": {"_id": "shop.orders.id"}, "u": {"$set": {"last": 2147483646}}, "multi": false}]}'
  run shop '{"insert": "orders", "documents": [{"sku": "jug"}]}'
  run shop '{"insert": "orders", "documents": [{"sku": "vase"}]}'
  step "Everything stored"
  show_orders
  show_counter
} > "$out" 2>&1

# After a restart (a new process) the same data and counter.
show_orders > "$work/again.txt" 2>&1
show_counter >> "$work/again.txt" 2>&1
tail -n 6 "$out" > "$work/last.txt"

status=0
if ! diff -u "$expected" "$out"; then
  echo "seed walk-through: output differs from $expected"
  status=1
fi
if ! diff -u "$work/last.txt" "$work/again.txt"; then
  echo "seed walk-through: data differs after a restart"
  status=1
fi
[ $status = 0 ] && echo "seed walk-through: output matches the seed, and again after a restart"
exit $status
