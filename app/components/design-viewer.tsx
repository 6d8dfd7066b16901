// The 3D preview of a design (three.js). The upload page imports this module dynamically, so three.js is its own chunk.
import { useEffect, useRef, useState } from "react";
import {
  AmbientLight,
  Box3,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Sphere,
  Vector3,
  WebGLRenderer,
} from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

export interface ViewerMesh {
  positions: Float32Array;
  indices: Uint32Array | null;
}

export default function DesignViewer({ mesh, color, label }: { mesh: ViewerMesh; color: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const materialRef = useRef<MeshStandardMaterial | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let renderer: WebGLRenderer;
    try {
      renderer = new WebGLRenderer({ antialias: true, alpha: true });
    } catch {
      setFailed(true);
      return;
    }
    const width = element.clientWidth || 480;
    const height = element.clientHeight || 360;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(width, height);
    element.appendChild(renderer.domElement);
    renderer.domElement.setAttribute("data-testid", "design-viewer-canvas");

    const scene = new Scene();
    scene.background = new Color("#f5f5f4");
    const geometry = new BufferGeometry();
    geometry.setAttribute("position", new BufferAttribute(mesh.positions, 3));
    if (mesh.indices) geometry.setIndex(new BufferAttribute(mesh.indices, 1));
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    const box = geometry.boundingBox ?? new Box3();
    const center = box.getCenter(new Vector3());
    // sit the model on the build plate, centred, as a slicer shows it
    geometry.translate(-center.x, -center.y, -box.min.z);
    const material = new MeshStandardMaterial({ color, roughness: 0.6, metalness: 0.05, flatShading: !mesh.indices });
    materialRef.current = material;
    scene.add(new Mesh(geometry, material));

    geometry.computeBoundingSphere();
    const sphere = geometry.boundingSphere ?? new Sphere(new Vector3(), 10);
    const radius = Math.max(sphere.radius, 1);
    const grid = new GridHelper(Math.ceil((radius * 3) / 10) * 10, 10, 0x94a3b8, 0xcbd5e1);
    grid.rotation.x = Math.PI / 2;
    scene.add(grid);
    scene.add(new AmbientLight(0xffffff, 0.6));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(radius * 2, -radius * 3, radius * 4);
    scene.add(sun);

    const camera = new PerspectiveCamera(40, width / height, radius / 100, radius * 100);
    // model files are Z-up
    camera.up.set(0, 0, 1);
    camera.position.set(radius * 1.8, -radius * 2.4, radius * 1.6 + sphere.center.z);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.target.copy(sphere.center);
    controls.enableDamping = true;
    controls.update();

    let frame = 0;
    const draw = () => {
      frame = requestAnimationFrame(draw);
      controls.update();
      renderer.render(scene, camera);
    };
    draw();

    const resize = new ResizeObserver(() => {
      const w = element.clientWidth || width;
      const h = element.clientHeight || height;
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      renderer.setSize(w, h);
    });
    resize.observe(element);

    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      controls.dispose();
      geometry.dispose();
      material.dispose();
      renderer.dispose();
      renderer.domElement.remove();
      materialRef.current = null;
    };
    // the colour is applied by the effect below; rebuilding the scene for it would reset the camera
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mesh]);

  useEffect(() => {
    materialRef.current?.color.set(color);
  }, [color]);

  if (failed) {
    return <p className="p-4 text-sm text-slate-600">This browser cannot show the 3D preview (WebGL is off).</p>;
  }
  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      className="h-72 w-full cursor-grab overflow-hidden rounded-md sm:h-80"
      data-testid="design-viewer"
    />
  );
}
