// Topoum's options on the create-table form (games/static/js/create_table.js): an option that only counts for one
// choice of another shows only then.  option field -> [the field it depends on, the value that makes it count]
// (engine/topoum/setup.py OPTIONS).
ToposCreateTable.depends({
  opt__topoum__types: ["opt__topoum__deck", "custom"],
  opt__topoum__preset: ["opt__topoum__deck", "preset"]
});
