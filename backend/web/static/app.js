// Progressive enhancement only: the text filter narrows the library as you
// type (the form still works without this, by reloading with ?q=).
document.addEventListener("input", function (e) {
  if (e.target.id !== "q") return;
  var q = e.target.value.trim().toLowerCase(), shown = 0;
  document.querySelectorAll("li.item").forEach(function (li) {
    var hit = li.dataset.key.indexOf(q) !== -1;
    li.hidden = !hit; if (hit) shown++;
  });
  var c = document.getElementById("count"); if (c) c.textContent = shown + " shown";
});
// A "Copy" button copies the text of the field its data-copy names.
document.addEventListener("click", function (e) {
  var id = e.target.dataset && e.target.dataset.copy; if (!id) return;
  var f = document.getElementById(id); if (!f || !navigator.clipboard) return;
  navigator.clipboard.writeText(f.value).then(function () { e.target.textContent = "Copied"; });
});
