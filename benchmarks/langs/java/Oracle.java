import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.AnnotatedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import com.sun.tools.javac.tree.JCTree;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The oracle of benchmarks/langs/java_oracle.py: javac's Compiler Tree API on a whole project.
 *
 * <p>Arguments: the project root, a file listing the sources to attribute (one path a line, relative to
 * the root), a file of sites ({@code path TAB 1-based line TAB 0-based char column}, the column of the
 * invoked name: a method's name, the simple class name of {@code new T()}, the {@code super}/{@code this}
 * keyword of a constructor call, an enum constant's name). Every source is parsed and attributed
 * (missing dependencies leave their calls unattributed; errors never stop it). For each site it prints
 * {@code index TAB place}, where place is {@code path:line} of the declaration javac binds the call to (a
 * constructor javac made up: its class), {@code outside} for an element of the JDK or a library, or
 * {@code none} when no call sits there or javac could not attribute it.
 */
public final class Oracle {
    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<Path> sources = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
            if (!line.isEmpty()) sources.add(root.resolve(line));
        }
        List<String[]> sites = new ArrayList<>();
        Set<String> wanted = new HashSet<>();
        for (String line : Files.readAllLines(Paths.get(args[2]), StandardCharsets.UTF_8)) {
            if (line.isEmpty()) continue;
            String[] f = line.split("\t");
            sites.add(f);
            wanted.add(root.resolve(f[0]).normalize().toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(sources);
        List<String> options = List.of("-proc:none", "-implicit:none", "-Xmaxerrs", "0", "-Xmaxwarns", "0",
                "-XDshould-stop.ifError=FLOW", "-XDshould-stop.at=FLOW", "-encoding", "UTF-8");
        JavacTask task = (JavacTask) javac.getTask(null, fm, d -> { }, options, null, units);
        Iterable<? extends CompilationUnitTree> parsed = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        SourcePositions pos = trees.getSourcePositions();
        Map<String, String> places = new HashMap<>();  // "path:line:col" -> answer
        for (CompilationUnitTree cu : parsed) {
            String file = Paths.get(cu.getSourceFile().toUri()).normalize().toString();
            if (!wanted.contains(file)) continue;
            String rel = root.relativize(Paths.get(file)).toString().replace('\\', '/');
            String text = cu.getSourceFile().getCharContent(true).toString();
            LineMap lines = cu.getLineMap();
            new TreePathScanner<Void, Void>() {
                void note(long at, Element e) {
                    if (at < 0) return;
                    String key = rel + ":" + lines.getLineNumber(at) + ":" + (lines.getColumnNumber(at) - 1);
                    places.put(key, place(trees, root, e));
                }

                /** Where the simple name ends a (possibly qualified, parameterized) name expression. */
                long nameStart(Tree t, String name) {
                    long end = pos.getEndPosition(cu, t);
                    if (end > 0 && end - name.length() >= 0 && text.startsWith(name, (int) (end - name.length()))) {
                        return end - name.length();
                    }
                    long start = pos.getStartPosition(cu, t);
                    int at = text.indexOf(name, (int) Math.max(start, 0));
                    return at;
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    ExpressionTree sel = node.getMethodSelect();
                    Element e = trees.getElement(new TreePath(getCurrentPath(), sel));
                    if (sel instanceof IdentifierTree) {
                        note(pos.getStartPosition(cu, sel), e);
                    } else if (sel instanceof MemberSelectTree) {
                        note(nameStart(sel, ((MemberSelectTree) sel).getIdentifier().toString()), e);
                    }
                    return super.visitMethodInvocation(node, v);
                }

                @Override
                public Void visitNewClass(NewClassTree node, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    Tree id = node.getIdentifier();
                    if (node.getClassBody() != null) {  // new T(...) { ... }: T's constructor (T, an interface)
                        e = superConstructor(trees.getElement(new TreePath(getCurrentPath(), id)),
                                node.getArguments().size());
                    }
                    while (true) {
                        if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
                        else if (id instanceof AnnotatedTypeTree) id = ((AnnotatedTypeTree) id).getUnderlyingType();
                        else break;
                    }
                    String name = id instanceof MemberSelectTree ? ((MemberSelectTree) id).getIdentifier().toString()
                            : id instanceof IdentifierTree ? ((IdentifierTree) id).getName().toString() : null;
                    Tree parent = getCurrentPath().getParentPath().getLeaf();
                    if (parent instanceof VariableTree && trees.getElement(getCurrentPath().getParentPath()) != null
                            && trees.getElement(getCurrentPath().getParentPath()).getKind() == ElementKind.ENUM_CONSTANT) {
                        VariableTree var = (VariableTree) parent;  // an enum constant: keyed at its name
                        long start = pos.getStartPosition(cu, var);
                        int at = text.indexOf(var.getName().toString(), (int) Math.max(start, 0));
                        note(at, e);
                    } else if (name != null) {
                        note(nameStart(id, name), e);
                    }
                    return super.visitNewClass(node, v);
                }
            }.scan(cu, null);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sites.size(); i++) {
            String[] f = sites.get(i);
            String got = places.getOrDefault(f[0] + ":" + f[1] + ":" + f[2], "none");
            out.append(i).append('\t').append(got).append('\n');
        }
        System.out.print(out);
    }

    /** The constructor of class {@code t} an anonymous subclass calls with {@code arity} arguments. */
    static Element superConstructor(Element t, int arity) {
        if (t == null || t.getKind() == ElementKind.INTERFACE) return t;
        Element found = null;
        int count = 0;
        for (Element m : t.getEnclosedElements()) {
            if (m.getKind() == ElementKind.CONSTRUCTOR
                    && ((javax.lang.model.element.ExecutableElement) m).getParameters().size() == arity) {
                found = m;
                count++;
            }
        }
        return count == 1 ? found : null;
    }

    static String place(Trees trees, Path root, Element e) {
        if (e == null || e.asType() == null || e.asType().getKind() == javax.lang.model.type.TypeKind.ERROR) {
            return "none";
        }
        TreePath path = trees.getPath(e);
        if (path == null) return "outside";
        CompilationUnitTree cu = path.getCompilationUnit();
        long at = ((JCTree) path.getLeaf()).getPreferredPosition();
        if (at < 0) at = trees.getSourcePositions().getStartPosition(cu, path.getLeaf());
        Path file = Paths.get(cu.getSourceFile().toUri()).normalize();
        String rel = root.relativize(file).toString().replace('\\', '/');
        return rel + ":" + cu.getLineMap().getLineNumber(at);
    }
}
