(function(){
var root=document.documentElement;root.classList.add('js');
var boards=document.querySelectorAll('.board[data-ply]');
var infos=document.querySelectorAll('.info[data-ply]');
var moves=document.querySelectorAll('.mv[data-ply]');
var list=document.querySelector('.moves');
var where=document.getElementById('where');
var views=document.querySelectorAll('.chart-view');
var last=boards.length-1,cur=-1;
function byPly(nodes,i){for(var k=0;k<nodes.length;k++){if(+nodes[k].getAttribute('data-ply')===i)return nodes[k];}return null;}
function mark(nodes,i,on){var e=byPly(nodes,i);if(e)e.classList.toggle('current',on);return e;}
function show(i){
i=Math.max(0,Math.min(last,i));if(i===cur)return;
if(cur>=0){mark(boards,cur,false);mark(infos,cur,false);mark(moves,cur,false);}
cur=i;mark(boards,i,true);mark(infos,i,true);
var mv=mark(moves,i,true);
if(mv&&list){var top=mv.offsetTop;if(top<list.scrollTop)list.scrollTop=top-4;else if(top+mv.offsetHeight>list.scrollTop+list.clientHeight)list.scrollTop=top+mv.offsetHeight-list.clientHeight+4;}
for(var v=0;v<views.length;v++){var xs=views[v].xs,c=views[v].cursor;if(c&&xs.length>i){c.setAttribute('x1',xs[i]);c.setAttribute('x2',xs[i]);}}
if(where){var h=byPly(infos,i);var t=h?h.querySelector('h2'):null;where.textContent=(i===0?'Start':(t?t.firstChild.textContent:''))+' \u00b7 '+i+'/'+last;}
}
document.addEventListener('keydown',function(e){
if(e.altKey||e.ctrlKey||e.metaKey)return;
var k=e.key;
if(k==='ArrowLeft'||k==='ArrowUp')show(cur-1);
else if(k==='ArrowRight'||k==='ArrowDown')show(cur+1);
else if(k==='Home')show(0);
else if(k==='End')show(last);
else return;
e.preventDefault();
});
for(var k=0;k<moves.length;k++){moves[k].addEventListener('click',function(){show(+this.getAttribute('data-ply'));});}
var go={first:function(){show(0);},prev:function(){show(cur-1);},next:function(){show(cur+1);},last:function(){show(last);}};
var buttons=document.querySelectorAll('[data-go]');
for(var b=0;b<buttons.length;b++){buttons[b].addEventListener('click',function(){go[this.getAttribute('data-go')]();});}
for(var v=0;v<views.length;v++){(function(view){
view.xs=view.getAttribute('data-xs').split(',').map(Number);view.cursor=view.querySelector('.cursor');
var svg=view.querySelector('svg');if(!svg)return;
svg.addEventListener('click',function(e){
var r=svg.getBoundingClientRect(),vb=svg.viewBox.baseVal;var x=(e.clientX-r.left)*vb.width/r.width;
var xs=view.xs,best=0;for(var i=1;i<xs.length;i++){if(Math.abs(xs[i]-x)<Math.abs(xs[best]-x))best=i;}show(best);});
})(views[v]);}
function fromHash(){var m=/^#(\d+)$/.exec(location.hash);return m?+m[1]:null;}
window.addEventListener('hashchange',function(){var i=fromHash();if(i!==null)show(i);});
var start=fromHash();show(start===null?0:start);
})();
